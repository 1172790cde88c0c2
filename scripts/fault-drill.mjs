#!/usr/bin/env node
// The fault drill (tests/fault-drill/README.md): each patch of tests/fault-drill/patches puts
// back a defect that was really fixed, and names the test files that must fail when it is back.
// For each patch this script makes a scratch copy of the working tree, applies the patch there,
// runs the named files and prints `caught` (the run failed) or `MISSED` (it passed). A patch
// that no longer applies is STALE. Any MISSED, STALE or ERROR exits 1. Not part of `npm test`.
//
//   npm run fault-drill                       every patch, one after another
//   npm run fault-drill -- 03 deadlock        only the patches whose names contain 03 or deadlock
//   npm run fault-drill -- --baseline         the named files on the unpatched copy: all must pass
//   npm run fault-drill -- --typecheck        also `tsc --noEmit` on each patched copy
//   npm run fault-drill -- --keep             leave the scratch copies (their paths are printed)
//
// A patch's header (the lines before its diff, which git apply ignores) says:
//   # Defect: <one sentence>
//   # Fixed by: <short sha> <subject>
//   # Caught by: <test file> [<test file> …]     (one or more lines)
//   # Database: postgres                         (optional: Vitest on TEST_DATABASE_URL)
// A Vitest file runs on PGlite (TEST_DATABASE_URL unset) unless the header says postgres; a
// tests/e2e/*.spec.ts file runs under Playwright. Runs go one at a time (the suite's machine may
// have two cores); each run's output is kept in .tmp/fault-drill/<patch>.log.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const patchDir = path.join(root, 'tests', 'fault-drill', 'patches');
const logDir = path.join(root, '.tmp', 'fault-drill');
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
  const field = (name) =>
    header
      .map((line) => line.replace(/^#\s?/, ''))
      .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      .map((line) => line.slice(name.length + 1).trim());
  const caughtBy = field('Caught by').flatMap((value) => value.split(/[\s,]+/).filter(Boolean));
  const database = (field('Database')[0] ?? 'pglite').toLowerCase();
  return {
    file,
    name: file.replace(/\.patch$/, ''),
    hasDiff: diffStart !== -1,
    caughtBy,
    database,
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

/**
 * A copy of the working tree in a fresh temporary folder, with node_modules a link to this
 * one's (Vitest and Playwright resolve packages through it; nothing is installed again).
 */
function scratchCopy(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hunch-fault-drill-'));
  for (const file of files) {
    const from = path.join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet in the index
    const to = path.join(dir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  liveScratch.add(dir);
  return dir;
}

/** Runs a command in `cwd`, its output (both streams) gathered; resolves with its exit code. */
function run(command, commandArgs, { cwd, env }) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 127, output: `${output}\n${error.message}` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

const isE2e = (file) => /^tests\/e2e\/.+\.spec\.ts$/.test(file);
const isVitest = (file) => /^tests\/.+\.test\.tsx?$/.test(file);

/** Runs the patch's named files in `dir`: Vitest files in one run, then each Playwright spec. */
async function runNamedFiles(patch, dir) {
  const vitestFiles = patch.caughtBy.filter(isVitest);
  const e2eFiles = patch.caughtBy.filter(isE2e);
  const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  delete env.CI; // no retries: a defect caught on the second try is caught all the same
  let log = '';
  let failed = false;
  if (vitestFiles.length > 0) {
    const vitestEnv = { ...env };
    const vitestArgs = ['vitest', 'run', ...vitestFiles];
    if (patch.database === 'postgres') {
      if (!env.TEST_DATABASE_URL)
        return { verdict: 'error', log: 'Database: postgres needs TEST_DATABASE_URL' };
      // The server files' PostgreSQL project only; the client and domain projects have no twin.
      if (vitestFiles.every((file) => file.startsWith('tests/server/'))) {
        vitestArgs.push('--project', 'server-postgres');
      }
    } else {
      delete vitestEnv.TEST_DATABASE_URL;
    }
    const result = await run('npx', vitestArgs, { cwd: dir, env: vitestEnv });
    log += result.output;
    if (/No test files found/i.test(result.output)) {
      return { verdict: 'error', log: `${log}\n(fault drill: Vitest found no test file)` };
    }
    if (result.code !== 0) failed = true;
  }
  for (const spec of e2eFiles) {
    const result = await run('npx', ['playwright', 'test', '--retries=0', spec], { cwd: dir, env });
    log += result.output;
    if (/No tests found/i.test(result.output)) {
      return { verdict: 'error', log: `${log}\n(fault drill: Playwright found no test)` };
    }
    if (result.code !== 0) failed = true;
  }
  return { verdict: failed ? 'failed' : 'passed', log };
}

/** One patch from copy to verdict; the scratch copy is removed unless --keep. */
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
    if (!baseline) {
      const applied = spawnSync('git', ['apply', path.join(patchDir, patch.file)], {
        cwd: dir,
        encoding: 'utf8',
      });
      if (applied.status !== 0) {
        return {
          verdict: 'STALE',
          detail: (applied.stderr || applied.stdout).trim().split('\n')[0],
        };
      }
      if (flags.has('--typecheck')) {
        const tsc = await run('npx', ['tsc', '--noEmit', '-p', '.'], {
          cwd: dir,
          env: process.env,
        });
        if (tsc.code !== 0) {
          writeLog(patch, tsc.output);
          return { verdict: 'ERROR', detail: 'the patched copy does not typecheck' };
        }
      }
    }
    const { verdict, log } = await runNamedFiles(patch, dir);
    writeLog(patch, log);
    if (verdict === 'error') return { verdict: 'ERROR', detail: log.trim().split('\n').at(-1) };
    if (baseline) {
      return verdict === 'passed'
        ? { verdict: 'passes' }
        : { verdict: 'FAILS', detail: 'the named files fail without the patch', log };
    }
    return verdict === 'failed'
      ? { verdict: 'caught', detail: firstFailure(log), log }
      : { verdict: 'MISSED', detail: 'the named files passed with the defect in', log };
  } finally {
    liveScratch.delete(dir);
    if (flags.has('--keep')) console.log(`  (scratch copy kept: ${dir})`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

function writeLog(patch, log) {
  mkdirSync(logDir, { recursive: true });
  writeFileSync(path.join(logDir, `${patch.name}${baseline ? '.baseline' : ''}.log`), log);
}

/** The first failed test's name in a Vitest or Playwright log, to show what caught the defect. */
function firstFailure(log) {
  const line = log
    .split('\n')
    .map((text) => text.trim())
    .find((text) => /^(×|✘|FAIL\s)/.test(text) || /^\d+\)\s/.test(text));
  return line?.replace(/\s+/g, ' ').slice(0, 160);
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

// Interrupted: the copy under way goes too (its runner got the same signal).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const dir of liveScratch) rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}

const files = workingTreeFiles();
const width = Math.max(...patches.map((patch) => patch.name.length));
console.log(
  `${baseline ? 'Fault drill baseline (no patch applied)' : 'Fault drill'}: ${patches.length} patch${patches.length === 1 ? '' : 'es'}, ${new Date().toISOString()}`,
);
const counts = new Map();
const started = Date.now();
for (const patch of patches) {
  const start = Date.now();
  const result = await drill(patch, files);
  counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1);
  const note =
    result.detail && (result.verdict !== 'caught' || flags.has('--verbose'))
      ? `  ${result.detail}`
      : '';
  console.log(
    `${result.verdict.padEnd(7)} ${patch.name.padEnd(width)}  ${seconds(Date.now() - start).padStart(8)}  ${patch.caughtBy.join(' ')}${note}`,
  );
  if (
    flags.has('--verbose') &&
    result.log &&
    result.verdict !== 'caught' &&
    result.verdict !== 'passes'
  ) {
    console.log(result.log.split('\n').slice(-40).join('\n'));
  }
}
const summary = [...counts].map(([verdict, count]) => `${count} ${verdict}`).join(', ');
console.log(`${patches.length} patches in ${seconds(Date.now() - started)}: ${summary}`);
const good = baseline ? 'passes' : 'caught';
process.exit([...counts.keys()].every((verdict) => verdict === good) ? 0 : 1);
