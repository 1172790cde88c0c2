#!/usr/bin/env node
// The fault drill (tests/fault-drill/README.md): each patch of tests/fault-drill/patches puts
// back a defect that was really fixed, and names the test files that must fail when it is back.
// For each patch this script makes a scratch copy of the working tree in .tmp/fault-drill/
// (node_modules hard-linked), applies the patch there, runs each named file and prints `caught`
// (every named file failed) or `MISSED` (one passed with the defect in), with the time. A patch that no
// longer applies, or names a file that no longer exists, is STALE; a run that cannot tell (no
// test found, no test failed in a failed run, a hang) is an ERROR. Anything but `caught` exits 1.
// Not part of `npm test`.
//
//   npm run fault-drill                     every patch, one after another
//   npm run fault-drill -- 03 deadlock      only the patches whose names contain 03 or deadlock
//   npm run fault-drill -- --baseline       each named file once on an unpatched copy: must pass
//   npm run fault-drill -- --typecheck      also `tsc --noEmit` on each patched copy
//   npm run fault-drill -- --verbose        the first failed test of each catch, a miss's output
//   npm run fault-drill -- --keep           leave the scratch copies (their paths are printed)
//
// A patch's header (the lines before its diff, which git apply ignores) says:
//   # Defect: <one sentence>
//   # Fixed by: <short sha> <subject>
//   # Caught by: <test file> [<test file> …]     (one or more such lines)
//   # Database: postgres                         (optional: Vitest on TEST_DATABASE_URL)
//   # Test: <a test's title, or part of it>      (optional: only the tests it names run)
// A Vitest file runs on PGlite (TEST_DATABASE_URL unset) unless the header says postgres; a
// tests/e2e/*.spec.ts file runs under Playwright, without retries. One file runs at a time (the
// machine may have two cores); each patch's output is kept in .tmp/fault-drill/logs/.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const patchDir = path.join(root, 'tests', 'fault-drill', 'patches');
const logDir = path.join(root, '.tmp', 'fault-drill', 'logs');
/** A run of one file that takes longer than this is taken as hung and killed. */
const RUN_LIMIT_MS = 20 * 60_000;
/** Scratch copies not yet removed. */
const liveScratch = new Set();

const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
const filters = args.filter((arg) => !arg.startsWith('--'));
for (const flag of flags) {
  if (!['--baseline', '--typecheck', '--keep', '--verbose'].includes(flag)) {
    console.error(`unknown option ${flag}`);
    process.exit(2);
  }
}
const baseline = flags.has('--baseline');

/** The header's fields and the diff, from one patch file. */
function readPatch(file) {
  const text = readFileSync(path.join(patchDir, file), 'utf8');
  const lines = text.split('\n');
  const diffStart = lines.findIndex(
    (line) => line.startsWith('diff --git ') || line.startsWith('--- '),
  );
  const header = lines.slice(0, diffStart === -1 ? lines.length : diffStart);
  // "# Name: value", continued on lines that start "#   ".
  const entries = [];
  for (const line of header) {
    if (/^#\s{2,}\S/.test(line) && entries.length > 0)
      entries.at(-1).value += ` ${line.slice(1).trim()}`;
    else {
      const match = /^#\s?([\w ]+):\s*(.*)$/.exec(line);
      if (match) entries.push({ name: match[1].toLowerCase(), value: match[2].trim() });
    }
  }
  const field = (name) =>
    entries.filter((entry) => entry.name === name.toLowerCase()).map((entry) => entry.value);
  const caughtBy = field('Caught by').flatMap((value) => value.split(/[\s,]+/).filter(Boolean));
  const database = (field('Database')[0] ?? 'pglite').toLowerCase();
  const test = field('Test')[0] ?? null;
  return {
    file,
    name: file.replace(/\.patch$/, ''),
    hasDiff: diffStart !== -1,
    caughtBy,
    database,
    test,
  };
}

/** Tracked files and untracked ones git does not ignore: the working tree as a commit would take it. */
function workingTreeFiles() {
  const listed = spawnSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  return [...new Set(listed.stdout.split('\0').filter(Boolean))];
}

/** Where the copies go: beside the logs, on the same file system as node_modules. */
const scratchRoot = path.join(root, '.tmp', 'fault-drill');
/** node_modules entries that are caches written in place: a copy starts without them. */
const NOT_LINKED = new Set(['.vite', '.vite-temp']);

/**
 * `from`'s tree again at `to`, every file a hard link (no byte copied, 37,000 files in a few
 * seconds), symbolic links as they are. A file is only ever replaced, never written in place,
 * by what runs in the copy, except the caches left out.
 */
function linkTree(from, to, skip = new Set()) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkSync(source, target);
  }
}

/**
 * A copy of the working tree in a fresh folder: its files copied (a patch edits them), its
 * node_modules hard-linked, so every package resolves inside the copy. A node_modules that is
 * a symbolic link to this one's is not enough: Vite serves a jsdom test's files only from inside
 * its root, and a jsdom file's setup (fake-indexeddb) then "cannot be found".
 */
function scratchCopy(files) {
  mkdirSync(scratchRoot, { recursive: true });
  const dir = mkdtempSync(path.join(scratchRoot, 'copy-'));
  liveScratch.add(dir);
  for (const file of files) {
    const from = path.join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet in the index
    const to = path.join(dir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  linkTree(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), NOT_LINKED);
  return dir;
}

/** Runs a file's runner (its own process group) whose group is killed on an interrupt. */
const liveRuns = new Set();

/**
 * Runs a command in `cwd`, its output (both streams) gathered; resolves with its exit code.
 * Past `limitMs` the command and everything it started are killed (a hang is an error).
 */
function run(command, commandArgs, { cwd, env, limitMs = RUN_LIMIT_MS }) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    liveRuns.add(child);
    let output = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, limitMs);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      liveRuns.delete(child);
      resolve({ code: 127, output: `${output}\n${error.message}`, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      liveRuns.delete(child);
      resolve({ code: code ?? (signal ? 128 : 1), output, timedOut });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const isE2e = (file) => /^tests\/e2e\/.+\.spec\.ts$/.test(file);
const isVitest = (file) => /^tests\/.+\.test\.tsx?$/.test(file);

/**
 * Runs one test file in `dir`: Vitest on PGlite (TEST_DATABASE_URL unset) or, for `postgres`,
 * the server files' PostgreSQL project; Playwright for an end-to-end spec, without retries.
 * Resolves with 'failed', 'passed' or 'error' (nothing ran, or the run hung) and its output.
 */
async function runFile(file, { database, test }, dir) {
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  delete env.CI; // no retries: a defect caught on the second try is caught all the same
  if (isE2e(file)) {
    // The second server on PostgreSQL (playwright.config.ts) only when the header asks for it.
    if (database !== 'postgres') delete env.TEST_DATABASE_URL;
    const only = test ? ['--grep', escapeRegExp(test)] : [];
    const result = await run('npx', ['playwright', 'test', '--retries=0', ...only, file], {
      cwd: dir,
      env,
    });
    if (result.timedOut) return { verdict: 'error', log: `${result.output}\n(timed out)` };
    if (/No tests found/i.test(result.output))
      return { verdict: 'error', log: `${result.output}\n(Playwright found no test)` };
    return { verdict: result.code === 0 ? 'passed' : 'failed', log: result.output };
  }
  const args = ['vitest', 'run', file, ...(test ? ['-t', escapeRegExp(test)] : [])];
  if (database === 'postgres') {
    if (!env.TEST_DATABASE_URL)
      return { verdict: 'error', log: 'Database: postgres needs TEST_DATABASE_URL' };
    // The server files' PostgreSQL project only; the client and domain projects have no twin.
    if (file.startsWith('tests/server/')) args.push('--project', 'server-postgres');
  } else {
    delete env.TEST_DATABASE_URL;
  }
  const result = await run('npx', args, { cwd: dir, env });
  if (result.timedOut) return { verdict: 'error', log: `${result.output}\n(timed out)` };
  if (/No test files found/i.test(result.output))
    return { verdict: 'error', log: `${result.output}\n(Vitest found no test file)` };
  // A failed run where no test failed (a file that did not load, an error outside any test)
  // proves nothing about the defect.
  if (result.code !== 0 && failedTests(result.output) === 0)
    return { verdict: 'error', log: `${result.output}\n(the run failed, but no test did)` };
  return { verdict: result.code === 0 ? 'passed' : 'failed', log: result.output };
}

/** The files a patch changes (its `+++ b/…` lines). */
function patchedFiles(patch) {
  const text = readFileSync(path.join(patchDir, patch.file), 'utf8');
  return [...text.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((match) => match[1]);
}

/** The copy, with the patch applied (and type-checked if asked): null, or why it cannot run. */
async function preparePatched(patch, dir) {
  // The copy lies inside this repository's folder: without the ceiling, git would apply the
  // patch relative to the repository and skip, silently, every path outside the copy.
  const applied = spawnSync('git', ['apply', path.join(patchDir, patch.file)], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CEILING_DIRECTORIES: scratchRoot },
  });
  if (applied.status !== 0) {
    return { verdict: 'STALE', detail: (applied.stderr || applied.stdout).trim().split('\n')[0] };
  }
  const unchanged = patchedFiles(patch).filter(
    (file) =>
      existsSync(path.join(root, file)) &&
      readFileSync(path.join(dir, file), 'utf8') === readFileSync(path.join(root, file), 'utf8'),
  );
  if (unchanged.length > 0) {
    return { verdict: 'ERROR', detail: `the patch changed nothing in ${unchanged.join(' ')}` };
  }
  if (flags.has('--typecheck')) {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: dir, env: process.env });
    if (tsc.code !== 0) {
      writeLog(patch.name, tsc.output);
      return { verdict: 'ERROR', detail: 'the patched copy does not typecheck' };
    }
  }
  return null;
}

/**
 * One patch from copy to verdict: caught when every named file fails, one file at a time.
 * The scratch copy is removed unless --keep.
 */
async function drill(patch, files) {
  if (!patch.hasDiff) return { verdict: 'ERROR', detail: 'no diff in the patch file' };
  const unknown = patch.caughtBy.filter((file) => !isVitest(file) && !isE2e(file));
  if (patch.caughtBy.length === 0 || unknown.length > 0) {
    return {
      verdict: 'ERROR',
      detail: unknown.length ? `not a test file: ${unknown.join(' ')}` : 'no `Caught by:` line',
    };
  }
  const missing = patch.caughtBy.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length > 0)
    return { verdict: 'STALE', detail: `no such test file: ${missing.join(' ')}` };

  const dir = scratchCopy(files);
  try {
    const refusal = await preparePatched(patch, dir);
    if (refusal) return refusal;
    let log = '';
    let failed = 0;
    const passed = [];
    for (const file of patch.caughtBy) {
      const result = await runFile(file, patch, dir);
      log += `\n===== ${file}\n${result.log}`;
      writeLog(patch.name, log);
      if (result.verdict === 'error') {
        return { verdict: 'ERROR', detail: `${file}: ${result.log.trim().split('\n').at(-1)}` };
      }
      if (result.verdict === 'passed') passed.push(file);
      else failed += failedTests(result.log);
    }
    return passed.length === 0
      ? { verdict: 'caught', failed, detail: firstFailure(log) }
      : { verdict: 'MISSED', detail: `passed with the defect in: ${passed.join(' ')}`, log };
  } finally {
    removeScratch(dir);
  }
}

/**
 * --baseline: every file some patch names, once, on an unpatched copy. Each must pass, or a
 * patch's `caught` would prove nothing.
 */
async function drillBaseline(file, { database, test }, files) {
  const dir = scratchCopy(files);
  try {
    const result = await runFile(file, { database, test }, dir);
    writeLog(
      `baseline-${file.replaceAll('/', '_')}${database === 'postgres' ? '-postgres' : ''}${test ? '-one-test' : ''}`,
      result.log,
    );
    if (result.verdict === 'error') {
      return { verdict: 'ERROR', detail: result.log.trim().split('\n').at(-1) };
    }
    return result.verdict === 'passed'
      ? { verdict: 'passes' }
      : { verdict: 'FAILS', detail: firstFailure(result.log), log: result.log };
  } finally {
    removeScratch(dir);
  }
}

function removeScratch(dir) {
  liveScratch.delete(dir);
  if (flags.has('--keep')) console.log(`  (scratch copy kept: ${dir})`);
  else rmSync(dir, { recursive: true, force: true });
}

function writeLog(name, log) {
  mkdirSync(logDir, { recursive: true });
  writeFileSync(path.join(logDir, `${name}.log`), log);
}

/** The first failed test's name in a Vitest or Playwright log, to show what caught the defect. */
function firstFailure(log) {
  const line = log
    .split('\n')
    .map((text) => text.trim())
    .find((text) => /^(×|✘|FAIL\s)/.test(text) || /^\d+\)\s/.test(text));
  return line?.replace(/\s+/g, ' ').slice(0, 160);
}

/**
 * How many tests failed, from Vitest's "Tests  3 failed | …" and Playwright's "  3 failed"
 * summaries. A run that failed with no failed test (a file that did not load, an error outside
 * any test) proves nothing about the defect: the line says so.
 */
function failedTests(log) {
  let count = 0;
  for (const match of log.matchAll(/^\s*Tests\s+(\d+) failed/gm)) count += Number(match[1]);
  for (const match of log.matchAll(/^\s*(\d+) failed\s*$/gm)) count += Number(match[1]);
  return count;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const patches = readdirSync(patchDir)
  .filter((file) => file.endsWith('.patch'))
  .sort()
  .map(readPatch)
  .filter((patch) => filters.length === 0 || filters.some((filter) => patch.name.includes(filter)));
if (patches.length === 0) {
  console.error(`no patch in ${path.relative(root, patchDir)} matches ${filters.join(' ')}`);
  process.exit(2);
}

// Interrupted: the runs under way and their copies go too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of liveRuns) killGroup(child);
    for (const dir of liveScratch) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

const files = workingTreeFiles();
const counts = new Map();
const started = Date.now();
const count = (verdict) => counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
const line = (verdict, name, ms, failed, rest) =>
  console.log(
    `${verdict.padEnd(7)} ${name.padEnd(width)}  ${seconds(ms).padStart(8)}  ${failed.padEnd(10)}${rest}`,
  );
let width = 0;
if (baseline) {
  // Each file once (per database and Test: line), with the patches that name it.
  const runs = new Map();
  for (const patch of patches)
    for (const file of patch.caughtBy) {
      const { database, test } = patch;
      const key = JSON.stringify([file, database, test]);
      const entry = runs.get(key) ?? { file, database, test, names: [] };
      entry.names.push(patch.name.slice(0, 2));
      runs.set(key, entry);
    }
  width = Math.max(...[...runs.values()].map((entry) => entry.file.length));
  console.log(
    `Fault drill baseline (no patch applied): ${runs.size} files named by ${patches.length} patches, ${new Date().toISOString()}`,
  );
  for (const { file, database, test, names } of runs.values()) {
    const start = Date.now();
    const result = await drillBaseline(file, { database, test }, files);
    count(result.verdict);
    const detail = result.detail ? `  ${result.detail}` : '';
    line(
      result.verdict,
      file,
      Date.now() - start,
      '',
      `${database === 'postgres' ? 'PostgreSQL, ' : ''}${test ? 'one test, ' : ''}patches ${names.join(' ')}${detail}`,
    );
  }
  console.log(`${runs.size} files in ${seconds(Date.now() - started)}: ${summaryOf(counts)}`);
} else {
  width = Math.max(...patches.map((patch) => patch.name.length));
  console.log(
    `Fault drill: ${patches.length} patch${patches.length === 1 ? '' : 'es'}, ${new Date().toISOString()}`,
  );
  for (const patch of patches) {
    const start = Date.now();
    const result = await drill(patch, files);
    count(result.verdict);
    const detail =
      result.detail && (result.verdict !== 'caught' || flags.has('--verbose'))
        ? `  ${result.detail}`
        : '';
    line(
      result.verdict,
      patch.name,
      Date.now() - start,
      result.failed ? `${result.failed} failed` : '',
      `${patch.caughtBy.join(' ')}${detail}`,
    );
    if (flags.has('--verbose') && result.log && result.verdict !== 'caught') {
      console.log(result.log.split('\n').slice(-40).join('\n'));
    }
  }
  console.log(
    `${patches.length} patches in ${seconds(Date.now() - started)}: ${summaryOf(counts)}`,
  );
}
const good = baseline ? 'passes' : 'caught';
process.exit([...counts.keys()].every((verdict) => verdict === good) ? 0 : 1);

function summaryOf(verdicts) {
  return [...verdicts].map(([verdict, n]) => `${n} ${verdict}`).join(', ');
}
