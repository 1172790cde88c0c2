// The docs stay true to the repository (part of `npm run lint`):
// (a) every path a README names (the root's, docs/, src/**, src-sw/, tests/**) exists;
// (b) no source, test, script, doc or config file cites a file a clone of Hunch does not have
//     (the briefing notes Hunch was first built from): say it in our own words, or point into
//     docs/ (docs/architecture.md §5, docs/groups-and-bets.md §4).
// Each problem is printed as file:line. `--list` prints every path checked and every citation
// found, then exits 0: a report, not a gate. The rules: scripts/check-docs-lib.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOutsideCitations, missingReadmePaths, pathReferences } from './check-docs-lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const listOnly = process.argv.includes('--list');

/** Never read: installs and history anywhere, and at the root what builds and runs leave behind. */
const SKIPPED_ANYWHERE = new Set(['node_modules', '.git']);
const SKIPPED_AT_ROOT = new Set(['dist', 'data', '.tmp', 'test-results', 'playwright-report']);
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|md|css|html|sql|sh|ya?ml|txt|svg|webmanifest)$/;

/** Every file of the repository, repository-relative with forward slashes. */
function walk(folder = '') {
  const files = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    if (SKIPPED_ANYWHERE.has(entry.name) || (!folder && SKIPPED_AT_ROOT.has(entry.name))) continue;
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...walk(relative));
    else files.push(relative);
  }
  return files;
}

const files = walk();
const existing = new Set(files);
for (const file of files) {
  for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) {
    existing.add(file.slice(0, at));
  }
}
const repo = {
  exists: (relative) => existing.has(relative),
  filesUnder: (folder) => (folder ? files.filter((f) => f.startsWith(`${folder}/`)) : files),
};
const read = (relative) => readFileSync(path.join(root, relative), 'utf8');

/** The READMEs (the root's and every folder's under src, src-sw and tests) and every page of docs/. */
const readmeFiles = files.filter(
  (file) =>
    file === 'README.md' ||
    /^docs\/.*\.md$/.test(file) ||
    /^(src|src-sw|tests)\/(.*\/)?README\.md$/.test(file),
);

const scanned = files.filter(
  (file) =>
    (/^(src|src-sw|tests|scripts|docs)\//.test(file) && TEXT_FILE.test(file)) ||
    file === 'README.md' ||
    /^[\w-]+\.config\.(ts|js|mjs)$/.test(file),
);

const problems = [];
for (const readme of readmeFiles) {
  const text = read(readme);
  if (listOnly) {
    const missing = new Set(
      missingReadmePaths(readme, text, repo).map((r) => `${r.line}:${r.ref}`),
    );
    for (const { ref, line } of pathReferences(text)) {
      const state = missing.has(`${line}:${ref}`) ? 'MISSING' : 'ok';
      console.log(`${readme}:${line}: ${state} ${ref}`);
    }
  }
  for (const { ref, line } of missingReadmePaths(readme, text, repo)) {
    problems.push(`${readme}:${line}: names \`${ref}\`, which is not in the repository`);
  }
}
for (const file of scanned) {
  for (const hit of findOutsideCitations(read(file))) {
    problems.push(
      `${file}:${hit.line}: cites "${hit.match}", a file outside the repository: ${hit.text.trim()}`,
    );
  }
}

for (const problem of problems) console.log(problem);
if (listOnly) {
  console.log(`${problems.length} problem(s) listed.`);
} else if (problems.length > 0) {
  console.error(
    `check-docs: ${problems.length} problem(s). Name only files the repository holds; the ` +
      'architecture, rules and product reference are in docs/ (docs/README.md).',
  );
  process.exitCode = 1;
}
