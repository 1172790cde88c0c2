import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { MIRROR_SYNCED_MARK } from '../../src/domain/mirror';
import type { MirrorPullResponse } from '../../src/server/mirror/synced-tables';
import {
  BARE_DONE_MARK,
  BARE_PAGE_PATH,
  bundleBarePage,
  timedUntil,
  watchScript,
} from './lib/bare-reference';
import { buildClient, CHROMIUM_FLAGS, CHROMIUM_PATH, sessionScript } from './lib/client';
import { createPostgresDatabase, seedWorld, type World, type WorldSpec } from './lib/data';
import {
  cannon,
  mean,
  tokenFor,
  BENCH_JWT_SECRET,
  type CannonFigures,
  type CannonSettings,
} from './lib/load';
import { REPO_ROOT, startChild } from './lib/processes';
import { atLeast, atMost, budget, log, reported, type Row, type Section } from './lib/report';

// Benchmark 8: the local mirror's pull (GET /api/member/state?cursor=…, docs/architecture.md §8) for
// the member-state benchmark's player (10 groups of 20 members, 50 bets each) on PostgreSQL:
// the bytes and requests of a first sync, of a reconnect with nothing changed and of catching up
// on 10 changed bets, and the no-change pull's throughput against an authenticated route that
// does no database work in the same server (benchmark 1's /api/bench/authenticated). In
// Chromium, the built PWA's first sync of that player into Dexie (time from navigation to the
// last row written, the main thread's longest task meanwhile) and the size of IndexedDB for a
// player in 50 groups of 500 bets. Both sizes against the bare page (lib/bare-page.ts) pulling
// the same pages and putting their rows into the same stores in the same browser and server,
// at the CPU's own speed (no throttling): goal ≤ 3× its time, and no task over 100 ms.

const SPEC: WorldSpec = {
  groups: 10,
  membersPerGroup: 20,
  betsPerGroup: 50,
  defaultPoints: 1000,
  baseWagerAmount: 10,
  extraMemberOfAll: true,
  viewerCreates: 5,
  viewerWagers: 10,
};
const SETTINGS: CannonSettings = { connections: 10, durationSeconds: 5, pipelining: 1 };
const ROUNDS = 2;
const CHANGED_BETS = 10;
const LARGE: WorldSpec = {
  groups: 50,
  membersPerGroup: 10,
  betsPerGroup: 500,
  defaultPoints: 100_000,
  baseWagerAmount: 10,
  extraMemberOfAll: true,
  viewerCreates: 5,
  viewerWagers: 50,
};

interface BrowserSync {
  /** ms from navigation start to the sync engine's mark after its last page was written (the bare page's, for it). */
  syncedAtMs: number;
  longestTaskMs: number;
  /** false: not done within timedUntil's 180 s (syncedAtMs is then a lower bound). */
  finished: boolean;
  indexedDbBytes: number | null;
  bets: number;
}

/**
 * Opens the built PWA (or the bare page writing the same pull, lib/bare-page.ts) signed in as
 * `userId` on a fresh profile and waits for its first sync to finish.
 */
async function syncInChromium(
  origin: string,
  userId: number,
  who: 'app' | 'bare',
): Promise<BrowserSync> {
  const token = await tokenFor(userId);
  const me = await fetch(`${origin}/auth/users/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const user = await me.json();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.addInitScript(
      sessionScript({ accessToken: token, refreshToken: 'bench-no-refresh', user }),
    );
    await context.addInitScript(watchScript([]));
    const page = await context.newPage();
    // BENCH_CPU_PROF=1: each first sync as a DevTools profile.
    const cdp = process.env.BENCH_CPU_PROF === '1' ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(
      who === 'app' ? `${origin}/dashboard` : `${origin}${BARE_PAGE_PATH}?mode=write`,
    );
    const timed = await timedUntil(page, {
      mark: who === 'app' ? MIRROR_SYNCED_MARK : BARE_DONE_MARK,
    });
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      const dir = path.join(REPO_ROOT, '.tmp/perf-profiles');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `sync-${who}-${userId}.cpuprofile`), JSON.stringify(profile));
    }
    const stored = await page.evaluate(async () => {
      const estimate = (await navigator.storage.estimate()) as StorageEstimate & {
        usageDetails?: { indexedDB?: number };
      };
      const bets = await new Promise<number>((resolve) => {
        const open = indexedDB.open('hunch');
        open.onsuccess = () => {
          const count = open.result.transaction('bets').objectStore('bets').count();
          count.onsuccess = () => resolve(count.result);
        };
      });
      return { indexedDbBytes: estimate.usageDetails?.indexedDB ?? null, bets };
    });
    return {
      syncedAtMs: timed.ms,
      longestTaskMs: timed.longestTaskMs,
      finished: timed.finished,
      ...stored,
    };
  } finally {
    await browser.close();
  }
}

/** A seeded player's first sync in Chromium, then the bare page's, on a server of its own serving the built client. */
async function browserSyncOf(spec: WorldSpec): Promise<{ app: BrowserSync; bare: BrowserSync }> {
  const { outDir } = await buildClient();
  const bareDir = await bundleBarePage();
  const database = await createPostgresDatabase();
  try {
    const world = await seedWorld(database.connection.db, spec);
    await database.connection.close();
    const server = await startChild('server-process.ts', {
      BENCH_MODE: 'hunch',
      BENCH_DB: 'postgres',
      BENCH_DB_LOCATION: database.location,
      BENCH_CLIENT_DIR: outDir,
      BENCH_BARE_DIR: bareDir,
      JWT_SECRET: BENCH_JWT_SECRET,
      PUSH_ENABLED: 'false',
    });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const app = await syncInChromium(origin, world.viewerId!, 'app');
      const bare = await syncInChromium(origin, world.viewerId!, 'bare');
      if (app.finished && bare.bets !== app.bets)
        throw new Error(`the bare page wrote ${bare.bets} bets, the app ${app.bets}`);
      return { app, bare };
    } finally {
      await server.stop();
    }
  } finally {
    await database.destroy();
  }
}

interface Pulled {
  requests: number;
  bytes: number;
  cursor: string;
  rows: number;
}

async function pullFrom(
  base: string,
  headers: Record<string, string>,
  cursor: string,
): Promise<Pulled> {
  let requests = 0;
  let bytes = 0;
  let rows = 0;
  for (let next = cursor; ;) {
    const response = await fetch(`${base}/api/member/state?cursor=${encodeURIComponent(next)}`, {
      headers,
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`pull answered ${response.status}: ${text.slice(0, 200)}`);
    requests += 1;
    bytes += Buffer.byteLength(text);
    const page = JSON.parse(text) as MirrorPullResponse;
    rows +=
      page.groups.length +
      page.memberships.length +
      page.bets.length +
      page.wagers.length +
      page.statistics.length;
    next = page.cursor;
    if (!page.hasMore) return { requests, bytes, cursor: next, rows };
  }
}

/** One wager by another member on each of `count` bets, spread over the groups (a friend's wager changes the bet's totals). */
async function changeBets(base: string, world: World, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const group = world.groups[index % world.groups.length]!;
    const betId = group.betIds[Math.floor(index / world.groups.length)]!;
    const memberId = group.memberIds[index % group.memberIds.length]!;
    const response = await fetch(`${base}/api/bets/wagers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenFor(memberId)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ betId, prediction: 'yes', points: SPEC.baseWagerAmount }),
    });
    if (response.status !== 201)
      throw new Error(`wager answered ${response.status}: ${await response.text()}`);
  }
}

export async function run(): Promise<Section> {
  const database = await createPostgresDatabase();
  try {
    const world = await seedWorld(database.connection.db, SPEC);
    const viewerId = world.viewerId!;
    await database.connection.close();
    const server = await startChild('server-process.ts', {
      BENCH_MODE: 'hunch',
      BENCH_DB: 'postgres',
      BENCH_DB_LOCATION: database.location,
      JWT_SECRET: BENCH_JWT_SECRET,
      PUSH_ENABLED: 'false',
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const headers = { authorization: `Bearer ${await tokenFor(viewerId)}` };
      const full = await pullFrom(base, headers, '0');
      log(
        `sync: first sync ${full.requests} requests, ${(full.bytes / 1024).toFixed(1)} KiB, ${full.rows} rows`,
      );
      const quiet = await pullFrom(base, headers, full.cursor);
      await changeBets(base, world, CHANGED_BETS);
      const delta = await pullFrom(base, headers, quiet.cursor);
      log(
        `sync: no change ${quiet.requests} request, ${quiet.bytes} B; ${CHANGED_BETS} changed bets ${delta.requests} request, ${(delta.bytes / 1024).toFixed(1)} KiB, ${delta.rows} rows`,
      );

      const pullUrl = `${base}/api/member/state?cursor=${encodeURIComponent(delta.cursor)}`;
      const bareUrl = `${base}/api/bench/authenticated`;
      await cannon(bareUrl, { ...SETTINGS, durationSeconds: 2 }, headers);
      await cannon(pullUrl, { ...SETTINGS, durationSeconds: 2 }, headers);
      const oneRowUrl = `${base}/auth/users/me`;
      const subject: CannonFigures[] = [];
      const reference: CannonFigures[] = [];
      const oneRow: CannonFigures[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        reference.push(await cannon(bareUrl, SETTINGS, headers));
        subject.push(await cannon(pullUrl, SETTINGS, headers));
        oneRow.push(await cannon(oneRowUrl, SETTINGS, headers));
        log(
          `sync round ${round + 1}: no-change pull ${subject.at(-1)!.requestsPerSecond.toFixed(0)} req/s, authenticated route ${reference.at(-1)!.requestsPerSecond.toFixed(0)} req/s, ` +
            `one-row read ${oneRow.at(-1)!.requestsPerSecond.toFixed(0)} req/s`,
        );
      }
      const bad = subject.reduce((sum, figures) => sum + figures.non2xx + figures.errors, 0);
      const { app: browser, bare: bareBrowser } = await browserSyncOf(SPEC);
      log(
        `sync: Chromium first sync ${browser.bets} bets in ${browser.syncedAtMs.toFixed(0)} ms, longest task ${browser.longestTaskMs.toFixed(0)} ms; ` +
          `bare page ${bareBrowser.syncedAtMs.toFixed(0)} ms, longest task ${bareBrowser.longestTaskMs.toFixed(0)} ms`,
      );
      const { app: large, bare: bareLarge } = await browserSyncOf(LARGE);
      log(
        `sync: Chromium, 50 groups x 500 bets: ${large.bets} bets in ${large.syncedAtMs.toFixed(0)} ms, longest task ${large.longestTaskMs.toFixed(0)} ms, IndexedDB ${((large.indexedDbBytes ?? 0) / 1048576).toFixed(1)} MiB; ` +
          `bare page ${bareLarge.syncedAtMs.toFixed(0)} ms, longest task ${bareLarge.longestTaskMs.toFixed(0)} ms`,
      );
      const name = '8 sync';
      const rows: Row[] = [
        reported(name, 'first sync, requests', 'requests', full.requests),
        reported(name, 'first sync, answer', 'KiB', full.bytes / 1024),
        budget(name, 'reconnect, nothing changed: requests', 'requests', quiet.requests, 1, 'max'),
        budget(name, 'reconnect, nothing changed: answer', 'bytes', quiet.bytes, 1024, 'max'),
        atMost(
          name,
          `catch-up on ${CHANGED_BETS} changed bets: bytes of a full sync`,
          'bytes',
          delta.bytes,
          full.bytes,
          0.05,
        ),
        atLeast(
          name,
          'no-change pull throughput (from memory)',
          'req/s',
          mean(subject.map((f) => f.requestsPerSecond)),
          mean(reference.map((f) => f.requestsPerSecond)),
          0.8,
        ),
        reported(
          name,
          'no-change pull vs GET /auth/users/me (one row)',
          'req/s',
          mean(subject.map((f) => f.requestsPerSecond)),
          mean(oneRow.map((f) => f.requestsPerSecond)),
        ),
        atMost(
          name,
          'Chromium first sync, navigation to last row, vs bare page',
          'ms',
          browser.syncedAtMs,
          bareBrowser.syncedAtMs,
          3,
        ),
        budget(
          name,
          'Chromium first sync, longest main-thread task',
          'ms',
          browser.longestTaskMs,
          100,
          'max',
        ),
        atMost(
          name,
          'Chromium, 50 groups × 500 bets: first sync, vs bare page',
          'ms',
          large.syncedAtMs,
          bareLarge.syncedAtMs,
          3,
        ),
        budget(
          name,
          'Chromium, 50 groups × 500 bets: longest task',
          'ms',
          large.longestTaskMs,
          100,
          'max',
        ),
        reported(
          name,
          'Chromium, 50 groups × 500 bets: IndexedDB size',
          'MiB',
          large.indexedDbBytes === null ? null : large.indexedDbBytes / 1048576,
        ),
      ];
      return {
        id: 'sync',
        title:
          'The local mirror’s pull: first sync, a quiet reconnect, catching up, and the no-change pull against an authenticated route with no database work',
        settings: {
          data: SPEC,
          large: LARGE,
          changedBets: CHANGED_BETS,
          autocannon: SETTINGS,
          rounds: ROUNDS,
          note: 'alternated rounds, figures are their means; Chromium: fresh profile, service worker blocked, no CPU throttling; app then bare page, one run each',
        },
        rows,
        notes: [
          ...(bad ? [`${bad} non-2xx responses or errors`] : []),
          ...[browser, bareBrowser, large, bareLarge]
            .filter((figures) => !figures.finished)
            .map(
              (figures) =>
                `a first sync did not finish in ${(figures.syncedAtMs / 1000).toFixed(0)} s (${figures.bets} bets written): its time is a lower bound`,
            ),
        ],
      };
    } finally {
      await server.stop();
    }
  } finally {
    await database.destroy();
  }
}
