import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import {
  buildClient,
  CHROMIUM_FLAGS,
  CHROMIUM_PATH,
  sessionScript,
  startClientServer,
  type Session,
} from './lib/client';
import { publicPageFile } from '../../src/domain/public-pages';
import { budget, log, type Row, type Section } from './lib/report';

// Benchmark 7: Lighthouse with its default (mobile) settings — a Moto G Power sized screen,
// simulated slow 4G and 4× CPU slowdown — on Debian's Chromium started by chrome-launcher,
// against the production build served by the real app. Three runs per page, the median
// score of each category. /landing is scored as a visitor sees it; for /dashboard a signed-in
// guest (a group, five open bets) is then written to localStorage through the DevTools
// protocol, and Lighthouse is told not to clear storage. Everything is loopback: no network beyond 127.0.0.1 is needed.
//
// The landing's reference, scored in the same run: the same pre-rendered HTML and CSS with every
// script left out (STATIC_LANDING_PATH, served by the same app from the build, compressed as the
// landing is). The landing's goal is its score within STATIC_MARGIN points of that page's.

const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const GOALS: Record<string, Record<(typeof CATEGORIES)[number], number>> = {
  '/landing': { performance: 95, accessibility: 100, 'best-practices': 100 },
  '/dashboard': { performance: 90, accessibility: 100, 'best-practices': 100 },
};

const STATIC_LANDING_PATH = '/bench-static-landing.html';
const STATIC_MARGIN = 3;

/** Writes the landing's HTML without its scripts into the build, beside the landing's own file. */
function writeStaticLanding(outDir: string): void {
  const landing = path.join(outDir, publicPageFile('/landing')!);
  const html = readFileSync(landing, 'utf8')
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/g, '');
  const target = path.join(outDir, STATIC_LANDING_PATH.slice(1));
  writeFileSync(target, html);
  if (existsSync(`${landing}.gz`)) writeFileSync(`${target}.gz`, gzipSync(html));
  if (existsSync(`${landing}.br`)) writeFileSync(`${target}.br`, brotliCompressSync(html));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function seedSession(
  chrome: LaunchedChrome,
  origin: string,
  session: Session,
): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(`${origin}/robots.txt`);
    await page.evaluate(sessionScript(session));
    await page.close();
  } finally {
    // Disconnects only: the browser belongs to chrome-launcher.
    await browser.close();
  }
}

export async function run(): Promise<Section> {
  const build = await buildClient();
  writeStaticLanding(build.outDir);
  const app = await startClientServer(build.outDir);
  let chrome: LaunchedChrome | undefined;
  const scores: Record<string, Record<string, number[]>> = {};
  const failures: string[] = [];
  const lighthouseVersion: string[] = [];
  const timings: string[] = [];
  try {
    const session = await app.newSession();
    chrome = await launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    });
    // The static page first: once /landing has registered the service worker, it would answer
    // every navigation with the app. The landing is a visitor's, so the session is written only
    // before /dashboard (signed in, the landing's script loads the app over the page).
    for (const pagePath of [STATIC_LANDING_PATH, ...Object.keys(GOALS)]) {
      if (pagePath === '/dashboard') await seedSession(chrome, app.origin, session);
      scores[pagePath] = {};
      for (let index = 0; index < RUNS; index += 1) {
        const result = await lighthouse(`${app.origin}${pagePath}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          disableStorageReset: true,
        });
        if (!result) throw new Error('lighthouse returned nothing');
        const { lhr } = result;
        lighthouseVersion[0] = lhr.lighthouseVersion;
        if (lhr.runtimeError) {
          // A broken trace (NO_NAVSTART and the like) scores nothing: say so, count only good runs.
          failures.push(`${pagePath} run ${index + 1} not counted: ${lhr.runtimeError.code}`);
          continue;
        }
        const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
        if (finalPath !== pagePath) failures.push(`${pagePath} ended on ${finalPath}`);
        for (const category of CATEGORIES) {
          const score = lhr.categories[category]?.score;
          (scores[pagePath]![category] ??= []).push(
            score === null || score === undefined ? Number.NaN : Math.round(score * 100),
          );
        }
        const failing = Object.values(lhr.audits)
          .filter(
            (audit) =>
              audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary',
          )
          .map((audit) => audit.id);
        for (const id of failing) {
          const items = (lhr.audits[id]?.details as { items?: unknown[] } | undefined)?.items ?? [];
          failures.push(`${pagePath} ${id}: ${JSON.stringify(items).slice(0, 300)}`);
        }
        const metrics = [
          'first-contentful-paint',
          'largest-contentful-paint',
          'total-blocking-time',
          'speed-index',
          'cumulative-layout-shift',
        ];
        timings.push(
          `${pagePath} run ${index + 1}: ${metrics.map((id) => `${id} ${lhr.audits[id]?.displayValue ?? '?'}`).join(', ')}`,
        );
        log(
          `lighthouse ${pagePath} run ${index + 1}: ${CATEGORIES.map((c) => `${c} ${scores[pagePath]![c]!.at(-1)}`).join(', ')}${failing.length ? `; failing: ${failing.join(', ')}` : ''}`,
        );
      }
    }
  } finally {
    await chrome?.kill();
    await app.stop();
  }
  const rows: Row[] = [];
  for (const [pagePath, goals] of Object.entries(GOALS)) {
    for (const category of CATEGORIES) {
      const values = scores[pagePath]?.[category] ?? [];
      rows.push(
        budget(
          `7 lighthouse ${pagePath}`,
          `${category}, median of ${values.length}`,
          'score',
          values.length ? median(values) : null,
          goals[category],
          'min',
        ),
      );
    }
  }
  const performanceOf = (pagePath: string) => {
    const values = scores[pagePath]?.performance ?? [];
    return values.length ? median(values) : null;
  };
  const reference = performanceOf(STATIC_LANDING_PATH);
  rows.push(
    budget(
      '7 lighthouse /landing',
      `performance vs the same page as static HTML (${reference ?? '?'}) less ${STATIC_MARGIN}`,
      'score',
      performanceOf('/landing'),
      reference === null ? Number.NaN : reference - STATIC_MARGIN,
      'min',
    ),
  );
  return {
    id: 'lighthouse',
    title: 'Lighthouse, mobile defaults (simulated throttling), Debian Chromium, median of 3',
    settings: {
      lighthouse: lighthouseVersion[0] ?? '?',
      chrome: CHROMIUM_PATH,
      flags: ['--headless=new', ...CHROMIUM_FLAGS],
      runs: RUNS,
      scores,
    },
    rows,
    notes: [...new Set(failures), ...timings],
  };
}
