import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { MIRROR_SYNCED_MARK } from '../../src/domain/mirror';
import {
  BARE_PAGE_PATH,
  bundleBarePage,
  throttle,
  timedUntil,
  watchScript,
  type Timed,
} from './lib/bare-reference';
import { buildClient, CHROMIUM_FLAGS, CHROMIUM_PATH, sessionScript } from './lib/client';
import { createPostgresDatabase, seedWorld, type WorldSpec } from './lib/data';
import { BENCH_JWT_SECRET, tokenFor } from './lib/load';
import { REPO_ROOT, startChild } from './lib/processes';
import { atMost, log, reported, type Row, type Section } from './lib/report';

// Benchmark 11: the installed app's cold start, offline, with the CPU slowed 4× (DevTools'
// throttling). The player of benchmark 8 (10 groups of 20 members, 50 bets each, on
// PostgreSQL) opens the built PWA online once (first sync, service worker installed), then
// Chromium is closed and launched again on that profile, offline, for each measurement: the
// time from navigation to the dashboard's open bets drawn from IndexedDB, and to a group's bet
// list and a bet's page drawn on a reload. Reference, in the same run and browser profile and
// under the same throttling: the bare page (lib/bare-page.ts) reading the same rows from the
// same IndexedDB and drawing them as plain <li>s (served online from loopback: the service
// worker does not hold it). Alternated rounds, medians; the longest main-thread task before
// the rows were drawn is reported beside the bare page's.

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
const CPU_SLOWDOWN = 4;
const ROUNDS = 3;
const BARE_DRAWN = '#rows > li';

type View = 'dashboard' | 'group' | 'bet';
const VIEWS: View[] = ['dashboard', 'group', 'bet'];
/** What each screen draws once its rows are read. */
const APP_DRAWN: Record<View, string> = {
  dashboard: 'ul[aria-labelledby="open-bets"] > li',
  group: '[role="tabpanel"] ul > li',
  bet: '[aria-label="Place your wager"]',
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<Section> {
  const { outDir } = await buildClient();
  const bareDir = await bundleBarePage();
  const database = await createPostgresDatabase();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-profile-'));
  try {
    const world = await seedWorld(database.connection.db, SPEC);
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
      const token = await tokenFor(world.viewerId!);
      const user = await (
        await fetch(`${origin}/auth/users/me`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      const groupId = world.groups[0]!.id;
      const betId = world.groups[0]!.betIds[0]!;
      const appUrl: Record<View, string> = {
        dashboard: '/dashboard',
        group: `/group/${groupId}/bets`,
        bet: `/bets/${betId}`,
      };
      const bareUrl: Record<View, string> = {
        dashboard: `${BARE_PAGE_PATH}?mode=read&view=dashboard`,
        group: `${BARE_PAGE_PATH}?mode=read&view=group&id=${groupId}`,
        bet: `${BARE_PAGE_PATH}?mode=read&view=bet&id=${betId}`,
      };
      const launch = async (): Promise<BrowserContext> => {
        const context = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_FLAGS,
        });
        await context.addInitScript(
          sessionScript({ accessToken: token, refreshToken: 'bench-no-refresh', user }),
        );
        await context.addInitScript(watchScript([...Object.values(APP_DRAWN), BARE_DRAWN]));
        return context;
      };

      // Installed: synced once online, the service worker active (it precaches the build).
      const install = await launch();
      try {
        const page = install.pages()[0] ?? (await install.newPage());
        await page.goto(`${origin}/dashboard`);
        await page.waitForFunction(
          (mark) => performance.getEntriesByName(mark).length > 0,
          MIRROR_SYNCED_MARK,
          { timeout: 180_000, polling: 100 },
        );
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready;
        });
      } finally {
        await install.close();
      }

      /** One launch of Chromium: the dashboard straight away, a group or bet page on its reload. */
      const measure = async (who: 'app' | 'bare', view: View, round: number): Promise<Timed> => {
        const context = await launch();
        try {
          await context.setOffline(who === 'app');
          const page = context.pages()[0] ?? (await context.newPage());
          const cdp = await throttle(context, page, CPU_SLOWDOWN);
          // BENCH_CPU_PROF=1: the app's first measurement of each screen as a DevTools profile.
          const profiled = process.env.BENCH_CPU_PROF === '1' && who === 'app' && round === 0;
          if (profiled) {
            await cdp.send('Profiler.enable');
            await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          }
          const url = origin + (who === 'app' ? appUrl[view] : bareUrl[view]);
          const until = { selector: who === 'app' ? APP_DRAWN[view] : BARE_DRAWN };
          if (view !== 'dashboard') {
            await page.goto(url, { waitUntil: 'commit' });
            await timedUntil(page, until);
          }
          if (profiled) await cdp.send('Profiler.start');
          if (view === 'dashboard') await page.goto(url, { waitUntil: 'commit' });
          else await page.reload({ waitUntil: 'commit' });
          const timed = await timedUntil(page, until);
          if (profiled) {
            const { profile: cpuProfile } = await cdp.send('Profiler.stop');
            const dir = path.join(REPO_ROOT, '.tmp/perf-profiles');
            mkdirSync(dir, { recursive: true });
            writeFileSync(
              path.join(dir, `cold-start-${view}.cpuprofile`),
              JSON.stringify(cpuProfile),
            );
          }
          return timed;
        } finally {
          await context.close();
        }
      };

      const app = new Map<View, Timed[]>(VIEWS.map((view) => [view, []]));
      const bare = new Map<View, Timed[]>(VIEWS.map((view) => [view, []]));
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const view of VIEWS) {
          app.get(view)!.push(await measure('app', view, round));
          bare.get(view)!.push(await measure('bare', view, round));
          log(
            `cold-start round ${round + 1} ${view}: app ${app.get(view)!.at(-1)!.ms.toFixed(0)} ms (longest task ${app.get(view)!.at(-1)!.longestTaskMs.toFixed(0)}), ` +
              `bare ${bare.get(view)!.at(-1)!.ms.toFixed(0)} ms (longest task ${bare.get(view)!.at(-1)!.longestTaskMs.toFixed(0)})`,
          );
        }
      }
      const name = '11 cold-start';
      const label: Record<View, string> = {
        dashboard: 'launch → dashboard’s open bets drawn',
        group: 'reload → group’s bets drawn',
        bet: 'reload → bet page drawn',
      };
      const rows: Row[] = VIEWS.flatMap((view) => [
        atMost(
          name,
          `${label[view]}, vs bare page`,
          'ms',
          median(app.get(view)!.map((t) => t.ms)),
          median(bare.get(view)!.map((t) => t.ms)),
          2,
        ),
        reported(
          name,
          `${view}: longest main-thread task, vs bare page`,
          'ms',
          Math.max(...app.get(view)!.map((t) => t.longestTaskMs)),
          Math.max(...bare.get(view)!.map((t) => t.longestTaskMs)),
        ),
      ]);
      return {
        id: 'cold-start',
        title:
          'The installed app’s cold start, offline, 4× CPU slowdown: dashboard, group and bet pages against a bare page reading the same rows from IndexedDB',
        settings: {
          data: SPEC,
          cpuSlowdown: CPU_SLOWDOWN,
          rounds: ROUNDS,
          note: 'Chromium relaunched on the installed profile per measurement; app offline (service worker), bare page online on loopback; medians; longest task = max over rounds',
        },
        rows,
        notes: VIEWS.flatMap((view) =>
          [...app.get(view)!, ...bare.get(view)!].some((timed) => !timed.finished)
            ? [`${view}: a screen was not drawn in 180 s (its time counted as 180 s)`]
            : [],
        ),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
    await database.destroy();
  }
}
