import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errors, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { REPO_ROOT } from './processes';

// The bare reference of the browser benchmarks (cold start and first sync): the machine's speed
// varies threefold between runs, so each browser timing is measured against a page doing the
// same IndexedDB work with no framework in the same run (bare-page.ts), served by the same
// server (server-process.ts, BENCH_BARE_DIR) at BARE_PAGE_PATH, under the same throttling.

export const BARE_PAGE_PATH = '/api/bench/bare';
export const BARE_DONE_MARK = 'hunch:bare-done';

let bundling: Promise<string> | undefined;
const cleanups: (() => void)[] = [];

/** bare-page.ts bundled (Dexie and the app's schema included) into a temporary folder: its path, for BENCH_BARE_DIR. */
export function bundleBarePage(): Promise<string> {
  bundling ??= (async () => {
    const { build } = await import('esbuild');
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-bare-'));
    cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
    await build({
      entryPoints: [path.join(REPO_ROOT, 'tests/perf/lib/bare-page.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      outfile: path.join(outDir, 'bare.js'),
      logLevel: 'warning',
    });
    return outDir;
  })();
  return bundling;
}

export function cleanupBarePage(): void {
  for (const cleanup of cleanups.splice(0)) cleanup();
  bundling = undefined;
}

/**
 * Init script: the main thread's long tasks (window.__longTasks, start and duration) and, per
 * selector, when an element matching it first appeared (window.__drawnAt).
 */
export function watchScript(selectors: readonly string[]): string {
  return `(() => {
    const tasks = [];
    const drawnAt = {};
    window.__longTasks = tasks;
    window.__drawnAt = drawnAt;
    const record = (entries) => {
      for (const entry of entries) tasks.push([entry.startTime, entry.duration]);
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({ type: 'longtask', buffered: true });
    // Takes the entries of tasks that ended but were not delivered yet.
    window.__flushLongTasks = () => record(observer.takeRecords());
    const selectors = ${JSON.stringify(selectors)};
    const check = () => {
      for (const selector of selectors)
        if (drawnAt[selector] === undefined && document.querySelector(selector))
          drawnAt[selector] = performance.now();
    };
    if (selectors.length > 0)
      new MutationObserver(check).observe(document, { childList: true, subtree: true });
  })()`;
}

export interface Timed {
  /** ms from the navigation's start to the selector's first element (or the mark); when not finished, to the timeout (a lower bound). */
  ms: number;
  /** The longest main-thread task that started before then. */
  longestTaskMs: number;
  /** false when the timeout came first. */
  finished: boolean;
}

/** Waits until `selector` is drawn (or `mark` is set) in `page`, then reads the time and the long tasks before it. */
export async function timedUntil(
  page: Page,
  until: { selector: string } | { mark: string },
  timeoutMs = 180_000,
): Promise<Timed> {
  let finished = true;
  try {
    await page.waitForFunction(
      (target) =>
        'mark' in target
          ? performance.getEntriesByName(target.mark).length > 0
          : (window as unknown as { __drawnAt: Record<string, number> }).__drawnAt[
              target.selector
            ] !== undefined,
      until,
      { timeout: timeoutMs, polling: 50 },
    );
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    finished = false;
  }
  // The task that drew has ended once this evaluation runs (a task of its own); its entry may
  // still wait in the observer's queue, so it is taken from there.
  const timed = await page.evaluate((target) => {
    const w = window as unknown as {
      __drawnAt: Record<string, number>;
      __longTasks: [number, number][];
      __flushLongTasks: () => void;
    };
    w.__flushLongTasks();
    const ms =
      ('mark' in target
        ? performance.getEntriesByName(target.mark)[0]?.startTime
        : w.__drawnAt[target.selector]) ?? performance.now();
    const before = w.__longTasks.filter(([start]) => start <= ms).map(([, duration]) => duration);
    return { ms, longestTaskMs: Math.max(0, ...before) };
  }, until);
  return { ...timed, finished };
}

/** Slows the page's CPU `rate` times (DevTools' CPU throttling), before it navigates. */
export async function throttle(
  context: BrowserContext,
  page: Page,
  rate: number,
): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}
