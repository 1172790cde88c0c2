import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { API_BASE, AUTH_BASE } from '../domain/constants';
import { authRoutes } from './auth/auth.routes';
import { betsRoutes } from './bets/bets.routes';
import { createBetsService } from './bets/bets.service';
import { startWagerTotalsAnnouncer } from './bets/wager-totals.announcer';
import { createWagersService } from './bets/wagers.service';
import { createAuthService } from './auth/auth.service';
import { registerAuthenticate } from './auth/authenticate';
import { AccessTokens } from './auth/tokens';
import { registerClientApp } from './client-app';
import type { Config } from './config';
import { registerCsrfProtection } from './csrf';
import type { DatabaseConnection } from './db/connect';
import { handleError } from './errors';
import { createEventBus } from './events';
import { groupsRoutes } from './groups/groups.routes';
import { createGroupsService } from './groups/groups.service';
import { listActiveGroupIds } from './groups/membership.service';
import { registerIdempotency } from './idempotency/idempotency.plugin';
import { startBetExpiryJob, type BetExpiryJob } from './jobs/bet-expiry.job';
import { createMailer } from './mail/mailer';
import { startPushNotifier } from './push/push.notifier';
import { pushRoutes } from './push/push.routes';
import { createPushSender, PUSH_SEND_TIMEOUT_MS, resolveVapidIdentity } from './push/push.sender';
import { createMirrorService } from './mirror/mirror.service';
import { createPushService } from './push/push.service';
import { createRealtimeGateway } from './realtime/realtime.gateway';
import { loadOrCreateSecrets } from './secrets';
import { registerSecurityHeaders } from './security-headers';

// Builds the whole HTTP app (API, security headers, CSRF, static PWA) without listening, so
// main.ts and the tests start the very same thing.

/** Bodies are small JSON documents; anything bigger is refused with 413 before parsing. */
export const BODY_LIMIT_BYTES = 100 * 1024;

export interface AppDeps {
  config: Config;
  /** Opened and migrated by the caller, who also closes it after app.close(). */
  database: DatabaseConnection;
  /** Where the built client lives; main.ts passes dist/client. Missing: a placeholder page. */
  clientDir: string;
  /** Overrides the pino logger built from config.logLevel (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** The clock of the services; tests move it to expire tokens. */
  now?: () => Date;
  /** The socket.io Redis adapter's key (channel prefix); tests give each server pair their own. */
  realtimeRedisKey?: string;
}

function defaultLogger(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // Pretty in a terminal, JSON lines everywhere else (ARCHITECTURE.md §3).
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  // First, so a bad VAPID_* stops start-up before anything is opened.
  const vapid = resolveVapidIdentity(config);
  const app = Fastify({
    logger: deps.logger ?? defaultLogger(config),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    // Graceful shutdown: close() stops accepting, waits for requests in flight, and tells
    // keep-alive clients to go away.
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // JSON only: a text/plain body is what a cross-site form can send without CORS, so refuse it (415).
  app.removeContentTypeParser('text/plain');

  const isHttps = config.publicUrl.startsWith('https://');
  const websocketOrigin = config.publicUrl.replace(/^http/, 'ws');
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", websocketOrigin],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only means something when we are served over HTTPS.
    strictTransportSecurity: isHttps ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  registerCsrfProtection(app, { secureCookie: isHttps });

  // Commands fail fast instead of queueing while Redis is away (the limits then pause, see
  // skipOnError); so wait for the first connection, or the first requests would go uncounted.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true })
    : undefined;
  redis?.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await redis?.connect();
  await app.register(fastifyRateLimit, {
    global: false,
    nameSpace: 'hunch-rate-limit:',
    // A Redis outage must not lock everybody out: limits pause rather than answer 500.
    skipOnError: true,
    ...(redis ? { redis } : {}),
  });

  const accessTokens = new AccessTokens(config.jwtSecret ?? loadOrCreateSecrets(config.dataDir).jwtSecret);
  registerAuthenticate(app, accessTokens);
  // Before the routes, which inherit its hooks: every signed-in write honours Idempotency-Key (ARCHITECTURE.md §4).
  registerIdempotency(app, { db: database.db });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, logger: app.log });
  const auth = createAuthService({ db: database.db, accessTokens, mailer, publicUrl: config.publicUrl, now: deps.now });
  // Services publish here after their commits; realtime and push subscribe (ARCHITECTURE.md §7).
  const events = createEventBus(app.log);
  app.decorate('events', events);
  const bets = createBetsService({ db: database.db, events, now: deps.now });
  const wagers = createWagersService({ db: database.db, events, now: deps.now });
  const wagerTotals = startWagerTotalsAnnouncer(events);
  // Before the gateway closes: what it still holds goes out.
  app.addHook('preClose', async () => wagerTotals.stop());
  const groups = createGroupsService({ db: database.db, events, now: deps.now, memberStateBets: bets.memberStateBets });
  // socket.io shares Fastify's HTTP server (one port); it attaches now and serves once listening.
  const realtime = await createRealtimeGateway({
    httpServer: app.server,
    events,
    accessTokens,
    listActiveGroupIds: (userId) => listActiveGroupIds(database.db, userId),
    logger: app.log,
    publicUrl: config.publicUrl,
    redisUrl: config.redisUrl,
    redisKey: deps.realtimeRedisKey,
  });
  // Open websockets would keep the HTTP server from closing: drop them first (clients reconnect).
  app.addHook('preClose', async () => realtime.disconnectAll());
  app.addHook('onClose', async () => realtime.close());
  // Web push (ARCHITECTURE.md §7): the notifier hears the bus and sends off the request path.
  const push = createPushService({ db: database.db, now: deps.now, allowLoopbackHttp: !isHttps });
  const pushNotifier = config.pushEnabled
    ? startPushNotifier({ db: database.db, events, push, sender: createPushSender({ vapid, timeoutMs: PUSH_SEND_TIMEOUT_MS }), logger: app.log })
    : undefined;
  app.decorate('push', { idle: async () => pushNotifier?.idle() });
  // Its last sends write to the database, which the caller closes after app.close().
  app.addHook('onClose', async () => pushNotifier?.stop());

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await database.ping();
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not ready');
      return reply.status(503).send({ message: 'The database is not answering.', code: 'not_ready' });
    }
  });

  await app.register(authRoutes, { prefix: AUTH_BASE, auth, rateLimits: config.rateLimits });
  await app.register(groupsRoutes, { prefix: API_BASE, groups, mirror: createMirrorService({ db: database.db }) });
  await app.register(betsRoutes, { prefix: API_BASE, bets, wagers });
  await app.register(pushRoutes, { prefix: API_BASE, push, vapidPublicKey: vapid.publicKey });
  registerClientApp(app, { clientDir: deps.clientDir });

  // Unresolved bets expire 7 days after expiresAt (ARCHITECTURE.md §5); 0 turns the timer off.
  let betExpiry: BetExpiryJob | undefined;
  if (config.betExpiryIntervalMs > 0) {
    app.addHook('onReady', async () => {
      betExpiry = startBetExpiryJob({ db: database.db, events, intervalMs: config.betExpiryIntervalMs, now: deps.now, logger: app.log });
    });
  }

  app.addHook('onClose', async () => {
    await betExpiry?.stop();
    await mailer.close();
    redis?.disconnect();
  });
  return app;
}
