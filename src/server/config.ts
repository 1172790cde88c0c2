import path from 'node:path';
import { z } from '../domain/schemas/zod';
import {
  DEFAULT_PUSH_ENDPOINT_HOSTS,
  parsePushEndpointHosts,
  type PushEndpointRule,
} from './push-endpoints';
import { REGISTRATION_MODES, type RegistrationSettings } from '../domain/registration';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';
import {
  emptyAsUndefined,
  rateLimitsFrom,
  rateLimitVariables,
  type RateLimits,
} from './config-rate-limits';
import {
  roundResultsFrom,
  roundResultsVariables,
  type RoundResultsSettings,
} from './config-rounds';

export type { RateLimits } from './config-rate-limits';

// Every setting of docs/architecture.md §3, parsed once. Each has a working default so a fresh
// checkout starts with no configuration; a bad value stops start-up naming the variable.

const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = (protocols: RegExp, hint: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        (value) => URL.canParse(value) && protocols.test(new URL(value).protocol),
        `must be a ${hint} URL`,
      )
      .optional(),
  );
/** A whole number read from the environment: "eighty" is said so, not in the parser's words. */
const wholeNumber = () =>
  z.coerce.number({ error: 'must be a number' }).int('must be a whole number');
const milliseconds = (fallback: number, min: number) =>
  z.preprocess(
    emptyAsUndefined,
    wholeNumber().min(min, `must be at least ${min}`).default(fallback),
  );
const booleanFlag = (fallback: 'true' | 'false' = 'false') =>
  z.preprocess(
    emptyAsUndefined,
    z
      .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
      .default(fallback)
      .transform((v) => v === 'true' || v === '1'),
  );

/** A list of push-endpoint rules (push-endpoints.ts): PUSH_ENDPOINT_HOSTS, WEBHOOK_HOSTS. */
const hostList = (fallback: string, what: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default(fallback)
      .superRefine((value, context) => {
        try {
          parsePushEndpointHosts(value);
        } catch (error) {
          context.addIssue({
            code: 'custom',
            message: `must be a comma-separated list of ${what} (${(error as Error).message})`,
          });
        }
      }),
  );
const portNumber = wholeNumber().min(0).max(65535, 'must be a port number (0–65535)');

const envSchema = z
  .object({
    PORT: z.preprocess(emptyAsUndefined, portNumber.default(3000)),
    HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    DATABASE_URL: optionalUrl(/^postgres(ql)?:$/, 'postgres://'),
    REDIS_URL: optionalUrl(/^rediss?:$/, 'redis://'),
    JWT_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    VAPID_SUBJECT: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
        .optional(),
    ),
    SMTP_URL: optionalUrl(/^smtps?:$/, 'smtp:// or smtps://').refine(
      (value) => value === undefined || !URL.canParse(value) || new URL(value).hostname !== '',
      'must name the mail server: smtp://user:password@host:587',
    ),
    PUBLIC_URL: optionalUrl(/^https?:$/, 'http:// or https://'),
    /** production: a proxy (TRUST_PROXY) without PUBLIC_URL is refused. */
    NODE_ENV: optionalString,
    /** Who may create an account: anyone, only through a group invite, or nobody (src/domain/registration.ts). */
    REGISTRATION: z.preprocess(
      emptyAsUndefined,
      z.enum(REGISTRATION_MODES, { error: 'must be one of open, invite, closed' }).default('open'),
    ),
    /** Whether visitors may play as guests (within REGISTRATION). */
    GUESTS: z.preprocess(
      emptyAsUndefined,
      z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    ),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z
        .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
          error: 'must be one of fatal, error, warn, info, debug, trace, silent',
        })
        .default('info'),
    ),
    /**
     * Behind a load balancer: how many proxy hops (1 for one balancer), or which proxy
     * addresses, may say the client's address in X-Forwarded-For (src/server/trust-proxy.ts).
     */
    TRUST_PROXY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('false')
        .superRefine((value, context) => {
          try {
            parseTrustProxy(value);
          } catch (error) {
            context.addIssue({ code: 'custom', message: (error as Error).message });
          }
        }),
    ),
    /** The longest a client may take to send a whole request (headers and body); then 408. */
    REQUEST_TIMEOUT_MS: milliseconds(30_000, 100),
    /** The longest a client may take to send a request's headers, counted from when it connects. */
    HEADERS_TIMEOUT_MS: milliseconds(10_000, 100),
    /** How long a connection may stay silent (between requests, or mid-request) before it is closed. */
    IDLE_TIMEOUT_MS: milliseconds(72_000, 100),
    /** Open connections from one address; more are closed at once (0: no cap; proxies TRUST_PROXY names are exempt). */
    MAX_CONNECTIONS_PER_IP: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(256),
    ),
    /** Open sockets of one user on one instance; a new one closes the user's oldest. */
    MAX_SOCKETS_PER_USER: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(1, 'must be at least 1').default(20),
    ),
    /**
     * Opens GET /metrics (Prometheus text) on the main port to `Authorization: Bearer <token>`;
     * unset: /metrics answers 404 there (src/server/metrics.ts).
     */
    METRICS_TOKEN: z.preprocess(
      emptyAsUndefined,
      z.string().min(16, 'must be at least 16 characters').optional(),
    ),
    /** A second port, bound to 127.0.0.1, serving GET /metrics without a token; unset: none. */
    METRICS_PORT: z.preprocess(emptyAsUndefined, portNumber.optional()),
    ...rateLimitVariables,
    /** How often the bet expiry job looks for bets to expire; 0 turns it off (another instance runs it). */
    BET_EXPIRY_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(60_000),
    ),
    /**
     * How often the floor top-up job looks for members below the floor (once a week each, so an
     * hourly look is plenty); 0 turns it off in this instance.
     */
    FLOOR_TOP_UP_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(3_600_000),
    ),
    /** How often the picks reveal job stamps bets whose betting closed; 0 turns it off. */
    PICKS_REVEAL_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(15_000),
    ),
    /** How often the webhooks job sends due deliveries (src/server/jobs/webhooks.job.ts). */
    WEBHOOK_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(5_000),
    ),
    /** Hosts a group's webhook may name whatever their address (src/server/webhooks/webhook-urls.ts). */
    WEBHOOK_HOSTS: hostList('', 'hosts or origins'),
    /** How often the seasons job ends seasons whose end date passed (standings archived, points reset if chosen); 0 turns it off. */
    SEASONS_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(60_000),
    ),
    ...roundResultsVariables,
    /** How often the reminders job sends what is due (closes soon, resolve reminders) and prunes the inbox; 0 turns it off. */
    REMINDER_INTERVAL_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber().min(0, 'must be 0 or more').default(60_000),
    ),
    /**
     * How long before a bet closes its "closes soon" reminder goes out (a bet made with less time
     * left: in the last half of its open time, domain closesSoonLeadMs).
     */
    CLOSES_SOON_REMINDER_MS: z.preprocess(
      emptyAsUndefined,
      wholeNumber()
        .min(60_000, 'must be at least 60000')
        .default(2 * 60 * 60 * 1000),
    ),
    /** false: subscriptions are still kept, but no notification is sent (e.g. a staging copy of production data). */
    PUSH_ENABLED: booleanFlag('true'),
    /** Tests only: the process kills itself (SIGKILL) right after a pushed write commits, before answering (src/server/sync). */
    HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT: booleanFlag('false'),
    /** Tests only: the same, right after a REST write sent with an Idempotency-Key commits (src/server/sync/write-services.ts). */
    HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT: booleanFlag('false'),
    /** The push services the server may send to (src/server/push-endpoints.ts). */
    PUSH_ENDPOINT_HOSTS: hostList(DEFAULT_PUSH_ENDPOINT_HOSTS, 'push service hosts'),
  })
  .superRefine((env, context) => {
    // Node refuses a server whose headers may take longer than the whole request.
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: 'must not be more than REQUEST_TIMEOUT_MS',
      });
    }
    // Behind a proxy the address players open is not this server's: mailed and shared links,
    // secure cookies and the live updates' origin need it said (issue 42, point 13).
    if (
      env.NODE_ENV === 'production' &&
      parseTrustProxy(env.TRUST_PROXY) !== false &&
      !env.PUBLIC_URL
    ) {
      context.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          'must be set when TRUST_PROXY is, with NODE_ENV=production: the address players open, e.g. https://hunch.example.com',
      });
    }
    // Half a key pair cannot sign anything; generating the other half would not match it.
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      const missing = env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
      context.addIssue({
        code: 'custom',
        path: [missing],
        message: 'must be set together with the other VAPID key',
      });
    }
  });

/** What protects the server from slow clients and connection floods (src/server/connection-limits.ts). */
export interface ConnectionLimits {
  /** Milliseconds to receive a whole request; then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Milliseconds to receive a request's headers, from the connection's start. */
  headersTimeoutMs: number;
  /** Milliseconds a connection may stay silent, between requests or in one. */
  idleTimeoutMs: number;
  /** Open connections per client address (0: no cap); trusted proxies are exempt. */
  maxPerIp: number;
  /** Open sockets (socket.io) per user on this instance; the oldest closes first. */
  maxSocketsPerUser: number;
}

/** Who may read the Prometheus metrics (src/server/metrics.ts); neither set: nobody. */
export interface MetricsSettings {
  /** METRICS_TOKEN: GET /metrics on the main port answers `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** METRICS_PORT: a listener on 127.0.0.1 serving GET /metrics without a token (0: any free port). */
  port: number | undefined;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data directory (embedded database, generated secrets, mail outbox). */
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  jwtSecret: string | undefined;
  vapid: {
    publicKey: string | undefined;
    privateKey: string | undefined;
    subject: string | undefined;
  };
  smtpUrl: string | undefined;
  /** Origin used in mailed links and share links, without a trailing slash. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (else publicUrl is http://localhost:PORT, src/server/public-url-check.ts). */
  publicUrlIsSet: boolean;
  /** REGISTRATION and GUESTS: who may create an account here. */
  registration: RegistrationSettings;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Who may say the client's address in X-Forwarded-For (TRUST_PROXY). */
  trustProxy: TrustProxy;
  connectionLimits: ConnectionLimits;
  rateLimits: RateLimits;
  metrics: MetricsSettings;
  /** Milliseconds between runs of the bet expiry job (src/server/jobs); 0: never. */
  betExpiryIntervalMs: number;
  /** Milliseconds between runs of the floor top-up job (src/server/jobs); 0: never. */
  floorTopUpIntervalMs: number;
  /** Milliseconds between runs of the picks reveal job (src/server/jobs); 0: never. */
  picksRevealIntervalMs: number;
  /** Milliseconds between runs of the seasons job (src/server/jobs); 0: never. */
  seasonsIntervalMs: number;
  /** Tipping rounds' results provider and its job (config-rounds.ts). */
  roundResults: RoundResultsSettings;
  /** Milliseconds between runs of the reminders job (src/server/jobs); 0: never. */
  reminderIntervalMs: number;
  /** How long before a bet closes members who have not picked are reminded. */
  closesSoonReminderMs: number;
  /** Whether web push notifications are sent (src/server/push). */
  pushEnabled: boolean;
  /** The only push endpoints accepted and requested (PUSH_ENDPOINT_HOSTS). */
  pushEndpointRules: PushEndpointRule[];
  /** Hosts a webhook may name whatever their address, e.g. a local receiver (WEBHOOK_HOSTS). */
  webhookHostRules: PushEndpointRule[];
  /** How often due webhook deliveries are sent (WEBHOOK_INTERVAL_MS; 0: not by this instance). */
  webhookIntervalMs: number;
  /** Tests only (HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT): die right after a pushed write commits, before its answer. */
  testCrashAfterPushCommit: boolean;
  /** Tests only (HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT): die right after a REST write with an Idempotency-Key commits, before its answer. */
  testCrashAfterKeyedWriteCommit: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One problem reads as one line (the start-up failures' rule); several as a list.
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws one ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET,
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT,
    },
    smtpUrl: e.SMTP_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlIsSet: e.PUBLIC_URL !== undefined,
    registration: { registration: e.REGISTRATION, guests: e.GUESTS === 'on' },
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    connectionLimits: {
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      idleTimeoutMs: e.IDLE_TIMEOUT_MS,
      maxPerIp: e.MAX_CONNECTIONS_PER_IP,
      maxSocketsPerUser: e.MAX_SOCKETS_PER_USER,
    },
    rateLimits: rateLimitsFrom(e),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    betExpiryIntervalMs: e.BET_EXPIRY_INTERVAL_MS,
    floorTopUpIntervalMs: e.FLOOR_TOP_UP_INTERVAL_MS,
    picksRevealIntervalMs: e.PICKS_REVEAL_INTERVAL_MS,
    seasonsIntervalMs: e.SEASONS_INTERVAL_MS,
    reminderIntervalMs: e.REMINDER_INTERVAL_MS,
    roundResults: roundResultsFrom(e),
    closesSoonReminderMs: e.CLOSES_SOON_REMINDER_MS,
    pushEnabled: e.PUSH_ENABLED,
    testCrashAfterPushCommit: e.HUNCH_TEST_CRASH_AFTER_PUSH_COMMIT,
    testCrashAfterKeyedWriteCommit: e.HUNCH_TEST_CRASH_AFTER_KEYED_WRITE_COMMIT,
    pushEndpointRules: parsePushEndpointHosts(e.PUSH_ENDPOINT_HOSTS),
    webhookHostRules: parsePushEndpointHosts(e.WEBHOOK_HOSTS),
    webhookIntervalMs: e.WEBHOOK_INTERVAL_MS,
  };
}
