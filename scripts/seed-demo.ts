import { count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { registerRequestSchema } from '../src/domain/schemas/auth';
import type { Bet, CreateBetInput } from '../src/domain/bets';
import { createBetRequestSchema } from '../src/domain/schemas/bets';
import type { Group } from '../src/domain/groups';
import { createAuthService } from '../src/server/auth/auth.service';
import { AccessTokens, type AuthUser } from '../src/server/auth/tokens';
import { createBetsService } from '../src/server/bets/bets.service';
import { createWagersService } from '../src/server/bets/wagers.service';
import { ConfigError, loadConfig } from '../src/server/config';
import { connectDatabase } from '../src/server/db/connect';
import { users } from '../src/server/db/schema';
import { createEventBus } from '../src/server/events';
import { createGroupMembersService } from '../src/server/groups/group-members.service';
import { createGroupsService } from '../src/server/groups/groups.service';
import { createLeaderboardService } from '../src/server/groups/leaderboard.service';
import { runBetExpiry } from '../src/server/jobs/bet-expiry.job';
import { createMailer } from '../src/server/mail/mailer';
import { loadOrCreateSecrets } from '../src/server/secrets';

// `npm run seed:demo`: fills an EMPTY database (the one DATA_DIR / DATABASE_URL point at, as
// for `npm start`) with demo players, a public and a private group, and bets of every type in
// every state, for screenshots, benchmarks and a newcomer's first look. Everything goes
// through the services, never raw inserts, so the ledger adds up exactly as in real play.
// The services' clock is moved back in time to create the bets that are already over.

const PASSWORD = 'Demo-pass-1';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const PLAYERS = [
  { firstName: 'Maya', lastName: 'Okafor', username: 'maya' },
  { firstName: 'Leo', lastName: 'Brandt', username: 'leo' },
  { firstName: 'Priya', lastName: 'Raman', username: 'priya' },
  { firstName: 'Sam', lastName: 'Whitfield', username: 'sam' },
  { firstName: 'Noor', lastName: 'Haddad', username: 'noor' },
  { firstName: 'Tom', lastName: 'Lindqvist', username: 'tom' },
] as const;

type Player = { name: string; email: string; user: AuthUser };

const quietLogger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  child: () => quietLogger,
} as unknown as FastifyBaseLogger;

async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/pglite`;
  try {
    await database.migrate();
    const [existing] = await database.db.select({ value: count() }).from(users);
    if (Number(existing?.value ?? 0) > 0) {
      console.log(
        `The database (${where}) already has ${existing!.value} user(s); seed:demo only fills an empty one, so nothing was changed.`,
      );
      console.log('Point DATA_DIR (or DATABASE_URL) at an empty database to seed it.');
      return;
    }

    const realNow = Date.now();
    let clock = realNow;
    const now = () => new Date(clock);
    /** Moves the services' clock to `offset` ms from the real now. */
    const at = (offset: number) => {
      clock = realNow + offset;
    };

    const db = database.db;
    const events = createEventBus();
    const mailer = createMailer({
      smtpUrl: undefined,
      dataDir: config.dataDir,
      logger: quietLogger,
    });
    const accessTokens = new AccessTokens(
      config.jwtSecret ?? loadOrCreateSecrets(config.dataDir).jwtSecret,
    );
    const auth = createAuthService({ db, accessTokens, mailer, publicUrl: config.publicUrl, now });
    const bets = createBetsService({ db, events, now });
    const wagers = createWagersService({ db, events, now });
    const groups = createGroupsService({ db, events, now });
    const members = createGroupMembersService({ db, events, now });
    const leaderboard = createLeaderboardService({ db });

    at(-30 * DAY);
    const players: Player[] = [];
    for (const player of PLAYERS) {
      const email = `${player.username}@demo.hunch`;
      const input = registerRequestSchema.parse({
        ...player,
        displayName: player.firstName,
        email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        appName: 'hunch',
        isTemporary: false,
      });
      const { user } = await auth.register(input);
      players.push({
        name: player.firstName,
        email,
        user: { id: user.id, appName: 'hunch', isTemporary: false },
      });
    }
    const [maya, leo, priya, sam, noor, tom] = players as [
      Player,
      Player,
      Player,
      Player,
      Player,
      Player,
    ];

    const friday = await groups.createGroup(maya.user, {
      name: 'Friday Night Predictions',
      description: 'Sport, weather and office gossip.',
      privacy: 'public',
      defaultPoints: 100,
    });
    for (const player of [leo, priya, sam, noor, tom])
      await members.joinPublic(player.user, friday.name);
    const family = await groups.createGroup(leo.user, {
      name: 'Brandt Family',
      privacy: 'private',
      inviteCode: 'BRANDT2024',
      defaultPoints: 50,
    });
    for (const player of [maya, priya])
      await members.joinPrivate(player.user, family.id, 'BRANDT2024');

    const bet = (
      creator: Player,
      group: Group,
      expiresInMs: number,
      fields: Record<string, unknown>,
    ): Promise<Bet> =>
      bets.createBet(
        creator.user,
        createBetRequestSchema.parse({
          groupId: group.id,
          baseWagerAmount: 1,
          expiresAt: new Date(clock + expiresInMs).toISOString(),
          ...fields,
        }) as CreateBetInput,
      );
    const wager = (player: Player, target: Bet, prediction: string, points: number) =>
      wagers.placeWager(player.user, { betId: target.id, prediction, points });

    // ---- settled in the past: resolved (payouts, a tie, a push), cancelled, expired ----
    at(-20 * DAY);
    const expired = await bet(sam, friday, DAY, {
      title: 'Will the new café open before June?',
      betType: 'yes_no',
    });
    await wager(maya, expired, 'yes', 1);
    await wager(tom, expired, 'no', 3);
    // One of each other type too, so every type appears in every state.
    const otherTypes = [
      {
        betType: 'multiple_choice',
        betTypeConfig: { options: ['Tea', 'Coffee', 'Juice'] },
        picks: ['Tea', 'Juice'],
      },
      { betType: 'numeric', betTypeConfig: {}, picks: ['3', '5'] },
      { betType: 'over_under', betTypeConfig: { line: 2.5 }, picks: ['over', 'under'] },
    ] as const;
    for (const [index, type] of otherTypes.entries()) {
      const forgotten = await bet(noor, friday, DAY, {
        title: `Forgotten bet ${index + 1}: ${type.betType.replace('_', ' ')}`,
        betType: type.betType,
        betTypeConfig: type.betTypeConfig,
      });
      await wager(leo, forgotten, type.picks[0], 1);
      await wager(priya, forgotten, type.picks[1], 2);
    }

    at(-10 * DAY);
    const derby = await bet(maya, friday, 2 * DAY, {
      title: 'Who wins the derby?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['City', 'United', 'Draw'] },
      baseWagerAmount: 2,
    });
    await wager(leo, derby, 'City', 6);
    await wager(priya, derby, 'United', 2);
    await wager(sam, derby, 'City', 2);
    await wager(noor, derby, 'Draw', 4);
    const snow = await bet(leo, friday, DAY, {
      title: 'Snow before the weekend?',
      betType: 'yes_no',
      betTypeConfig: { yesLabel: 'Snow', noLabel: 'No snow' },
    });
    await wager(maya, snow, 'no', 2);
    await wager(tom, snow, 'yes', 1);
    await wager(noor, snow, 'no', 3);
    const pizza = await bet(priya, friday, DAY, {
      title: 'How many pizzas will the team order?',
      betType: 'numeric',
    });
    await wager(maya, pizza, '7', 2);
    await wager(leo, pizza, '9', 1);
    await wager(sam, pizza, '12', 3);
    const quiz = await bet(noor, friday, DAY, {
      title: 'Pub quiz score over/under 40.5',
      betType: 'over_under',
      betTypeConfig: { line: 40.5 },
      baseWagerAmount: 3,
    });
    await wager(priya, quiz, 'over', 6);
    await wager(tom, quiz, 'under', 3);
    const laps = await bet(tom, friday, DAY, {
      title: 'Laps Sam swims: over/under 20',
      betType: 'over_under',
      betTypeConfig: { line: 20 },
    });
    await wager(leo, laps, 'over', 1);
    await wager(sam, laps, 'under', 2);
    const picnic = await bet(sam, friday, 3 * DAY, {
      title: 'Picnic on Sunday?',
      betType: 'yes_no',
    });
    await wager(maya, picnic, 'yes', 2);
    await wager(priya, picnic, 'no', 1);
    const called: Bet[] = [];
    for (const [index, type] of otherTypes.entries()) {
      const off = await bet(tom, friday, 3 * DAY, {
        title: `Called-off bet ${index + 1}: ${type.betType.replace('_', ' ')}`,
        betType: type.betType,
        betTypeConfig: type.betTypeConfig,
      });
      await wager(sam, off, type.picks[0], 1);
      await wager(noor, off, type.picks[1], 1);
      called.push(off);
    }
    const granny = await bet(leo, family, 2 * DAY, {
      title: 'What will Granny bake for the birthday?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Apple pie', 'Carrot cake', 'Scones'] },
    });
    await wager(maya, granny, 'Carrot cake', 2);
    await wager(priya, granny, 'Scones', 1);

    at(-8 * DAY);
    await bets.resolveBet(maya.user, derby.id, 'City');
    await bets.resolveBet(leo.user, snow.id, 'no');
    await bets.resolveBet(priya.user, pizza.id, '8'); // 7 and 9 tie: both win
    await bets.resolveBet(noor.user, quiz.id, '44');
    await bets.resolveBet(tom.user, laps.id, '20'); // on the line: a push, everyone refunded
    await bets.resolveBet(leo.user, granny.id, 'Carrot cake');
    await bets.cancelBet(sam.user, picnic.id);
    // A group admin may cancel too: Maya created the group.
    for (const off of called) await bets.cancelBet(maya.user, off.id);

    // ---- waiting for its resolver: expired by time, inside the 7-day grace ----
    at(-3 * DAY);
    const train = await bet(maya, friday, DAY, {
      title: 'Will the 8:15 train be on time all week?',
      betType: 'yes_no',
    });
    await wager(leo, train, 'no', 1);
    await wager(noor, train, 'yes', 1);

    // ---- open now ----
    at(-HOUR);
    const rain = await bet(maya, friday, 3 * DAY, {
      title: 'Will it rain on Saturday?',
      description: 'Anything measurable at the park counts.',
      betType: 'yes_no',
    });
    await wager(leo, rain, 'yes', 2);
    await wager(priya, rain, 'no', 1);
    await wager(sam, rain, 'yes', 3);
    const bakeOff = await bet(leo, friday, 2 * DAY, {
      title: 'Who wins the office bake-off?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Priya', 'Sam', 'Noor', 'Tom'] },
      baseWagerAmount: 2,
    });
    await wager(maya, bakeOff, 'Noor', 4);
    await wager(tom, bakeOff, 'Tom', 6);
    const goals = await bet(priya, friday, 5 * DAY, {
      title: "How many goals in Sunday's match?",
      betType: 'numeric',
      baseWagerAmount: 2,
    });
    await wager(noor, goals, '3', 2);
    await wager(sam, goals, '2', 4);
    const marathon = await bet(noor, friday, HOUR + 45 * 60 * 1000, {
      title: "Tom's marathon time: over/under 4.5 hours",
      betType: 'over_under',
      betTypeConfig: { line: 4.5 },
    });
    await wager(maya, marathon, 'under', 1);
    await bet(tom, friday, 7 * DAY, {
      title: 'Will the team win the league this season?',
      betType: 'yes_no',
      betTypeConfig: { yesLabel: 'Champions', noLabel: 'Not this year' },
      baseWagerAmount: 3,
    });
    const holiday = await bet(maya, family, 4 * DAY, {
      title: 'Beach or mountains for the summer holiday?',
      betType: 'multiple_choice',
      betTypeConfig: { options: ['Beach', 'Mountains'] },
    });
    await wager(leo, holiday, 'Beach', 2);

    // The job refunds the bet left unresolved for more than 7 days after its expiry.
    at(0);
    await runBetExpiry({ db, events }, now());
    await mailer.close();

    const standings = await leaderboard.getLeaderboard(maya.user, friday.id);
    console.log(`Seeded ${where}:`);
    console.log(
      `  groups: "${friday.name}" (public, id ${friday.id}) and "${family.name}" (private, id ${family.id}, invite code BRANDT2024)`,
    );
    console.log(
      '  bets of every type in every state: active (with wagers, one closing within 2 hours, one awaiting its resolver), resolved (payouts, a tie, a push), cancelled, expired',
    );
    console.log(
      `  leaderboard of ${friday.name}: ${standings.users.map((row) => `${row.name} ${row.points}`).join(', ')}`,
    );
    console.log(`Sign in as any of these (password ${PASSWORD}):`);
    for (const player of players) console.log(`  ${player.email}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error('seed:demo failed:', error);
  process.exit(1);
});
