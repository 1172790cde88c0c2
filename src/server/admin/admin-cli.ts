import { createServer } from 'node:http';
import Fastify from 'fastify';
import { forgotPasswordRequestSchema } from '../../domain/schemas/auth';
import { createAccountDataService } from '../auth/account-data.service';
import { createAuthService } from '../auth/auth.service';
import { AccessTokens } from '../auth/tokens';
import { consoleOutput, loadConfigOrSay, type CliOutput } from '../cli-output';
import { type Config } from '../config';
import { connectDatabase, type DatabaseConnection } from '../db/connect';
import { DataDirLockedError } from '../db/data-dir-lock';
import { createEventBus } from '../events';
import { listActiveGroupIds } from '../groups/membership-queries';
import { safeLogging } from '../logging';
import { createMailer } from '../mail/mailer';
import { createRealtimeGateway } from '../realtime/realtime.gateway';
import { loadOrCreateSecrets } from '../secrets';
import { findAccountByEmail, listAccounts } from './accounts';

// `npm run admin -- users list | reset-password <email> | delete <email> | sessions-revoke <email>`:
// the operator's commands, on the database `npm start` uses (DATA_DIR's PGlite with Hunch
// stopped, or DATABASE_URL while it serves). Each runs the app's own service: a reset link as
// forgot-password makes it, a deletion as DELETE /auth/users/me, sessions ended as sign-out
// everywhere, the account's API tokens with them (on PostgreSQL the live instances hear it through the database; with REDIS_URL
// their sockets close too, through the realtime gateway's Redis channel). scripts/admin.mjs runs
// this from the server bundle (dist/server/admin-cli.js).

const USAGE = `Usage: npm run admin -- <command>
  users list                  every account: id, email, name, kind, created, live sessions
  users reset-password <email>  prints a one-time password-reset link (valid one hour)
  users delete <email>        deletes the account as "Delete account" does (points stay, as "Deleted player")
  users sessions-revoke <email> signs the account out everywhere and revokes its API tokens
On PGlite (no DATABASE_URL) Hunch must be stopped first; on PostgreSQL they run while it serves.`;

class UsageError extends Error {}
class NoSuchAccount extends Error {}

function lockedMessage(error: DataDirLockedError): string {
  return (
    `Hunch is running on this data folder (pid ${error.holderPid}), and PGlite serves one ` +
    'process at a time: DATA_DIR is locked. Stop Hunch (e.g. systemctl stop hunch), run the ' +
    'command, start it again. (On PostgreSQL, DATABASE_URL, admin commands run while Hunch serves.)'
  );
}

/** The app's services over `database`, wired as buildApp wires them (src/server/app.ts). */
async function servicesFor(config: Config, database: DatabaseConnection) {
  // The app's logger as the app configures it (warnings and errors only, nothing secret).
  const logger = Fastify({ logger: { level: 'warn', ...safeLogging } }).log;
  const events = createEventBus(logger);
  const accessTokens = new AccessTokens(
    config.jwtSecret ?? loadOrCreateSecrets(config.dataDir).jwtSecret,
  );
  const mailer = createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, logger });
  // With Redis, the sockets of ended sessions close on every live instance: the gateway carries
  // `sessionsRevoked` to them as the app's own sign-out everywhere does.
  const realtime = config.redisUrl
    ? await createRealtimeGateway({
        httpServer: createServer(),
        events,
        accessTokens,
        listActiveGroupIds: (userId) => listActiveGroupIds(database.db, userId),
        logger,
        publicUrl: config.publicUrl,
        redisUrl: config.redisUrl,
      })
    : undefined;
  return {
    auth: createAuthService({
      db: database.db,
      events,
      accessTokens,
      mailer,
      publicUrl: config.publicUrl,
    }),
    accountData: createAccountDataService({ db: database.db, events }),
    async close() {
      await realtime?.close();
      await mailer.close();
    },
  };
}

async function accountOf(database: DatabaseConnection, given: string | undefined) {
  const parsed = forgotPasswordRequestSchema.shape.email.safeParse(given ?? '');
  if (!parsed.success) throw new UsageError(`"${given ?? ''}" is not an email address.`);
  const account = await findAccountByEmail(database.db, parsed.data);
  if (!account) throw new NoSuchAccount(`No account has the email ${parsed.data}.`);
  return account;
}

async function run(args: string[], config: Config, output: CliOutput): Promise<number> {
  // "users" first, as the usage says; the commands alone work too.
  const [command, email, ...rest] = args[0] === 'users' ? args.slice(1) : args;
  const takesEmail = ['reset-password', 'delete', 'sessions-revoke'].includes(command ?? '');
  if (
    rest.length > 0 ||
    !(command === 'list' ? email === undefined : takesEmail && email !== undefined)
  ) {
    output.error(USAGE);
    return 2;
  }
  const database = await connectDatabase(config);
  try {
    if (command === 'list') {
      const accounts = await listAccounts(database.db);
      output.out('id\temail\tname\tkind\tcreated\tlive sessions');
      for (const account of accounts) {
        output.out(
          [
            account.id,
            account.email ?? '-',
            account.displayName,
            account.deletedAt ? 'deleted' : account.isTemporary ? 'guest' : 'full',
            account.createdAt.toISOString(),
            account.liveSessions,
          ].join('\t'),
        );
      }
      output.out(`${accounts.length} accounts.`);
      return 0;
    }
    const account = await accountOf(database, email);
    const services = await servicesFor(config, database);
    try {
      if (command === 'reset-password') {
        const reset = await services.auth.createPasswordResetLink(account.email);
        if (!reset) throw new NoSuchAccount(`${account.email} is a guest: it has no password.`);
        output.out(`A one-time reset link for ${account.email}, valid one hour:`);
        output.out(reset.link);
      } else if (command === 'delete') {
        await services.accountData.deleteAccountAsOperator(account.id);
        output.out(`Deleted the account of ${account.email} (id ${account.id}).`);
      } else {
        const tokens = await services.auth.revokeAllAsOperator(account.id);
        output.out(
          `Signed ${account.email} out everywhere and revoked ${tokens} API token${tokens === 1 ? '' : 's'}.`,
        );
      }
      return 0;
    } finally {
      await services.close();
    }
  } finally {
    await database.close();
  }
}

/** Runs an admin command with the command line's arguments; returns the exit code. */
export async function runAdminCli(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  output: CliOutput = consoleOutput,
): Promise<number> {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    output.out(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  const config = loadConfigOrSay(env, output);
  if (!config) return 1;
  try {
    return await run(args, config, output);
  } catch (error) {
    if (error instanceof DataDirLockedError) output.error(lockedMessage(error));
    else if (error instanceof UsageError || error instanceof NoSuchAccount)
      output.error(error.message);
    else output.error(`The command failed: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
}
