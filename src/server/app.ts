import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE, AUTH_BASE, SYNC_PUSH_PATH } from '../domain/constants';
import { accountDataRoutes } from './auth/account-data.routes';
import { createAccountDataService } from './auth/account-data.service';
import { authRoutes } from './auth/auth.routes';
import { betShareRoutes } from './bets/bet-shares.routes';
import { betsRoutes } from './bets/bets.routes';
import { findPublicBetPreview, findSharedBetPreview } from './bets/bet-preview.service';
import { commentsRoutes } from './comments/comments.routes';
import { startWagerTotalsAnnouncer } from './bets/wager-totals.announcer';
import { createAuthService } from './auth/auth.service';
import { createApiTokenAuth } from './auth/api-token-auth';
import { apiTokenRoutes } from './auth/api-tokens.routes';
import { createApiTokenService } from './auth/api-tokens.service';
import { registerAuthenticate } from './auth/authenticate';
import { createSessionLiveness } from './auth/session-liveness';
import { AccessTokens } from './auth/tokens';
import { deviceTransferRoutes } from './auth/device-transfer.routes';
import { createDeviceTransferService } from './auth/device-transfer.service';
import { registerClientApp } from './client-app';
import type { Config } from './config';
import { capConnectionsPerAddress, connectionOptions, followAnswers } from './connection-limits';
import { registerControlCharacterGuard } from './control-characters';
import { registerCsrfProtection } from './csrf';
import type { DatabaseConnection } from './db/connect';
import { handleError } from './error-handler';
import { registerHealthRoutes } from './health';
import { createEventBus } from './events';
import { groupsRoutes, inviteRoutes } from './groups/groups.routes';
import { createLeaderboardService } from './groups/leaderboard.service';
import { createMemberStatsService } from './groups/member-stats.service';
import { listActiveGroupIds } from './groups/membership-queries';
import { registerIdempotency } from './idempotency/idempotency.plugin';
import { registerJsonBodyParser } from './json-body';
import { loggerOptions, OneLineRequestLog } from './logging';
import { registerMetrics } from './metrics';
import { registerOpenApi } from './openapi';
import { warnOnceWithoutPublicUrl } from './public-url-check';
import { rateLimitHook, redisOrMemoryStore, writesPerUserRule } from './rate-limits';
import { registerTimedJobs } from './jobs/timed-jobs';
import { createWebhooksService } from './webhooks/webhooks.service';
import { webhooksRoutes } from './webhooks/webhooks.routes';
import { createMailer } from './mail/mailer';
import { startNotificationRecorder } from './notifications/notification.recorder';
import { notificationsRoutes } from './notifications/notifications.routes';
import { startPushNotifier } from './push/push.notifier';
import { isAllowedPushEndpoint } from './push-endpoints';
import { pushRoutes } from './push/push.routes';
import { createPushSender, PUSH_SEND_TIMEOUT_MS, resolveVapidIdentity } from './push/push.sender';
import { createChangeWatermarks } from './mirror/change-watermarks';
import { mirrorRoutes } from './mirror/mirror.routes';
import { createMirrorService } from './mirror/mirror.service';
import { roundsRoutes } from './rounds/rounds.routes';
import { seasonsRoutes } from './seasons/seasons.routes';
import { createPushService } from './push/push-subscriptions.service';
import { createRealtimeGateway } from './realtime/realtime.gateway';
import { loadOrCreateSecrets } from './secrets';
import { registerSecurityHeaders, securityHeaderOptions } from './security-headers';
import { createSyncPushService } from './sync/push.service';
import { syncRoutes } from './sync/sync.routes';
import { createWriteRunner, createWriteServices } from './sync/write-services';
import { connectRedis } from './redis-client';
import { fastifyTrustProxy, trustedPeerCheck } from './trust-proxy';

// Builds the whole HTTP app (API, security headers, CSRF, static PWA) without listening, so
// main.ts and the tests start the very same thing.

/** Bodies are small JSON documents; anything bigger is refused with 413 before parsing. */
const BODY_LIMIT_BYTES = 100 * 1024;

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
  /** How often sockets with an expired access token are closed (default 15 s); tests shorten it. */
  socketExpiryCheckMs?: number;
  /**
   * Tests only: called right after each pushed write commits, before its events and answer. A
   * test that throws here loses the answer and the events, as a crash would, in-process.
   */
  afterPushCommit?: () => void;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  // First, so a bad VAPID_* stops start-up before anything is opened.
  const vapid = resolveVapidIdentity(config);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: BODY_LIMIT_BYTES,
    // The client's address (per-IP rate limits) past the proxies TRUST_PROXY names, never the
    // X-Forwarded-For entries the client wrote itself.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Slow clients are cut off: request, header and idle timeouts.
    ...connectionOptions(config.connectionLimits),
    // Graceful shutdown: close() stops accepting, waits for requests in flight, and tells
    // keep-alive clients to go away.
    forceCloseConnections: 'idle',
    // One line per request instead of two.
    logController: new OneLineRequestLog(),
  });
  warnOnceWithoutPublicUrl(app, config);
  followAnswers(app.server);
  // One address cannot hold every connection (proxies TRUST_PROXY names excepted).
  capConnectionsPerAddress(app.server, {
    max: config.connectionLimits.maxPerIp,
    isTrustedPeer: trustedPeerCheck(config.trustProxy),
    logger: app.log,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // JSON only: a text/plain body is what a cross-site form can send without CORS, so refuse it (415).
  app.removeContentTypeParser('text/plain');
  // JSON with a depth limit, before anything walks a body (400 body_too_deep).
  registerJsonBodyParser(app);

  const isHttps = config.publicUrl.startsWith('https://');
  registerSecurityHeaders(app, securityHeaderOptions(config.publicUrl));
  await app.register(fastifyCookie);
  registerCsrfProtection(app, { secureCookie: isHttps });

  // Rate limits' shared counts (docs/security.md); unreachable, start-up goes on degraded.
  const redis = await connectRedis(config.redisUrl, app.log);
  await app.register(fastifyRateLimit, {
    global: false,
    nameSpace: 'hunch-rate-limit:',
    // A failing Redis command must not lock everybody out: the limit skips it rather than answer 500.
    skipOnError: true,
    ...(redis ? { store: redisOrMemoryStore(redis, 'hunch-rate-limit:') } : {}),
  });

  const accessTokens = new AccessTokens(
    config.jwtSecret ?? loadOrCreateSecrets(config.dataDir).jwtSecret,
  );
  // Services publish here after their commits; realtime and push subscribe (docs/architecture.md §7).
  const events = createEventBus(app.log);
  app.decorate('events', events);
  // The database's change notifications: pulls with nothing new and sessions found live are
  // answered from memory while they say nothing changed.
  const watermarks = createChangeWatermarks(database, app.log);
  await watermarks.start();
  app.addHook('onClose', async () => watermarks.stop());
  // A token passes only while its session lives (session-liveness.ts says who vouches for the
  // sessions it remembers: the bus on the only instance, else the change notifications).
  const sessions = createSessionLiveness({
    db: database.db,
    events,
    isOnlyInstance: database.driver === 'pglite' && !config.redisUrl,
    watermarks,
    now: deps.now,
  });
  app.addHook('onClose', async () => sessions.stop());
  const apiTokenAuth = createApiTokenAuth({
    app,
    db: database.db,
    sessions,
    rateLimits: config.rateLimits,
    now: deps.now,
  });
  registerAuthenticate(app, accessTokens, sessions, apiTokenAuth);
  // Before any route: the OpenAPI document records routes as they are added.
  await registerOpenApi(app, { publicUrl: config.publicUrl });
  // Prometheus metrics (METRICS_TOKEN, METRICS_PORT): the request hook, GET /metrics.
  const metrics = registerMetrics(app, config.metrics);
  metrics.watchDatabase(() => database.poolStats());
  // Every signed-in write counts against its user (docs/security.md), before the
  // idempotency hooks so a refused write claims no key.
  const writesPerUser = rateLimitHook(app, writesPerUserRule(config.rateLimits));
  // Callback style: reads (most requests) pass without a promise. A push counts each of its
  // mutations instead (src/server/sync), not itself.
  app.addHook('preValidation', (request, reply, done) => {
    if (
      !request.user ||
      !WRITE_METHODS.has(request.method) ||
      request.routeOptions.url === SYNC_PUSH_PATH
    )
      return done();
    writesPerUser(request, reply).then(() => done(), done);
  });
  // Before the idempotency hooks: a NUL byte is refused (400) before anything stores or hashes it.
  registerControlCharacterGuard(app);
  // Before the routes, which inherit its hooks: every signed-in write honours Idempotency-Key (docs/architecture.md §4).
  registerIdempotency(app, { db: database.db, metrics });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    logger: app.log,
  });
  app.decorate('mail', { idle: async () => mailer.idle() });
  const auth = createAuthService({
    db: database.db,
    events,
    accessTokens,
    mailer,
    publicUrl: config.publicUrl,
    registration: config.registration,
    now: deps.now,
  });
  // The services of every signed-in write: the REST routes' and, per mutation, the push's.
  const writeServices = createWriteServices({ db: database.db, events, now: deps.now });
  // The REST routes' writes run through it: each in a transaction that checks its caller first.
  const writeRunner = createWriteRunner({
    db: database.db,
    events,
    now: deps.now,
    // Tests only: a crash between a keyed REST write's commit and its answer (tests/server/idempotency).
    afterKeyedCommit: config.testCrashAfterKeyedWriteCommit
      ? () => process.kill(process.pid, 'SIGKILL')
      : undefined,
  });
  const { bets, wagers, groups } = writeServices;
  const wagerTotals = startWagerTotalsAnnouncer(events);
  // Before the gateway closes: what it still holds goes out.
  app.addHook('preClose', async () => wagerTotals.stop());
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
    isSessionLive: (user) => sessions.isLive(user),
    now: deps.now,
    expiryCheckMs: deps.socketExpiryCheckMs,
    maxSocketsPerUser: config.connectionLimits.maxSocketsPerUser,
  });
  metrics.watchSockets(() => realtime.io.of('/').sockets.size);
  // Open websockets would keep the HTTP server from closing: drop them first (clients reconnect).
  app.addHook('preClose', async () => realtime.disconnectAll());
  app.addHook('onClose', async () => realtime.close());
  // Web push (docs/architecture.md §7): the notifier hears the bus and sends off the request path.
  const isAllowedEndpoint = (endpoint: string) =>
    isAllowedPushEndpoint(endpoint, config.pushEndpointRules);
  const push = createPushService({ db: database.db, now: deps.now, isAllowedEndpoint });
  const pushNotifier = config.pushEnabled
    ? startPushNotifier({
        db: database.db,
        events,
        push,
        sender: createPushSender({ vapid, timeoutMs: PUSH_SEND_TIMEOUT_MS, isAllowedEndpoint }),
        logger: app.log,
      })
    : undefined;
  // The inbox: every notification is an entry first; push sends the copies due.
  const notificationRecorder = startNotificationRecorder({
    db: database.db,
    events,
    now: deps.now,
    logger: app.log,
  });
  app.decorate('notifications', { idle: async () => notificationRecorder.idle() });
  app.addHook('onClose', async () => notificationRecorder.stop());
  // Pushes start from inbox entries: waiting for push waits for the entries first.
  app.decorate('push', {
    idle: async () => {
      await notificationRecorder.idle();
      await pushNotifier?.idle();
    },
  });
  // Its last sends write to the database, which the caller closes after app.close().
  app.addHook('onClose', async () => pushNotifier?.stop());

  registerHealthRoutes(app, { database, redis });

  await app.register(authRoutes, {
    prefix: AUTH_BASE,
    auth,
    rateLimits: config.rateLimits,
    registration: config.registration,
  });
  await app.register(accountDataRoutes, {
    prefix: AUTH_BASE,
    accountData: createAccountDataService({ db: database.db, events, now: deps.now }),
    windowMs: config.rateLimits.windowMs,
  });
  await app.register(apiTokenRoutes, {
    prefix: API_BASE,
    apiTokens: createApiTokenService({ db: database.db, events, now: deps.now }),
  });
  await app.register(deviceTransferRoutes, {
    prefix: AUTH_BASE,
    deviceTransfers: createDeviceTransferService({ db: database.db, auth, events, now: deps.now }),
    rateLimits: config.rateLimits,
  });
  await app.register(groupsRoutes, {
    prefix: API_BASE,
    groups,
    members: writeServices.members,
    leaderboard: createLeaderboardService({ db: database.db, now: deps.now }),
    memberStats: createMemberStatsService({ db: database.db }),
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  await app.register(mirrorRoutes, {
    prefix: API_BASE,
    mirror: createMirrorService({ db: database.db, now: deps.now, watermarks }),
  });
  await app.register(inviteRoutes, { prefix: API_BASE, groups, rateLimits: config.rateLimits });
  await app.register(betsRoutes, {
    prefix: API_BASE,
    bets,
    wagers,
    fair: writeServices.fair,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  await app.register(betShareRoutes, {
    prefix: API_BASE,
    shares: writeServices.shares,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  await app.register(commentsRoutes, {
    prefix: API_BASE,
    comments: writeServices.comments,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  await app.register(seasonsRoutes, {
    prefix: API_BASE,
    seasons: writeServices.seasons,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  await app.register(roundsRoutes, {
    prefix: API_BASE,
    rounds: writeServices.rounds,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  // A group's webhooks (src/server/webhooks): a resend is sent at once by the jobs runner.
  await app.register(webhooksRoutes, {
    prefix: API_BASE,
    webhooks: createWebhooksService({
      db: database.db,
      hostRules: config.webhookHostRules,
      onQueued: () => jobs.kickWebhooks(),
      now: deps.now,
    }),
  });
  await app.register(notificationsRoutes, {
    prefix: API_BASE,
    notifications: writeServices.notifications,
    writes: writeRunner,
    rateLimits: config.rateLimits,
  });
  // The one write path of the app's outbox (src/server/sync): the same services, per mutation.
  await app.register(syncRoutes, {
    prefix: API_BASE,
    push: createSyncPushService({
      db: database.db,
      events,
      now: deps.now,
      // Tests only: a crash between a write's commit and its answer (tests/server/sync, and
      // in-process, the convergence test's).
      afterCommit: config.testCrashAfterPushCommit
        ? () => process.kill(process.pid, 'SIGKILL')
        : deps.afterPushCommit,
    }),
    rateLimits: config.rateLimits,
    db: database.db,
  });
  await app.register(pushRoutes, { prefix: API_BASE, push, vapidPublicKey: vapid.publicKey });
  registerClientApp(app, {
    clientDir: deps.clientDir,
    publicUrl: config.publicUrl,
    findBetPreview: (betId) => findPublicBetPreview(database.db, betId),
    findSharedBetPreview: (token) => findSharedBetPreview(database.db, token),
  });

  // The timed jobs (src/server/jobs), started once the app is ready.
  const jobs = registerTimedJobs(app, { config, db: database.db, events, metrics, now: deps.now });

  app.addHook('onClose', async () => {
    await jobs.stop();
    await mailer.close();
    redis?.disconnect();
  });
  return app;
}
