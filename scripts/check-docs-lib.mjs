// The pure half of scripts/check-docs.mjs (tests/scripts/check-docs.test.ts holds it to its
// word): which paths a README names, which of them are missing, and which lines cite a file a
// clone of Hunch does not have. The script walks the files; these functions only read text.

/** File endings that make a backticked word a file name even without a folder. */
const FILE_ENDINGS = /\.(ts|tsx|js|mjs|cjs|json|md|css|sql|html|svg|png|webmanifest|ya?ml|sh|txt)$/;

/** Folders that exist only after a build, a run or an install: a README may name them freely. */
const GENERATED_ROOTS = new Set([
  'dist',
  'data',
  'node_modules',
  '.tmp',
  'test-results',
  'playwright-report',
  'coverage',
]);

/** Characters a repository path never holds here: routes' {params}, globs, placeholders, prose. */
const NOT_A_PATH = /[\s{}<>*…#?=$:;,()'"|\\~`[\]]/;

/** An upper-case word: an environment variable standing for a folder (`DATA_DIR/outbox`) or SQL. */
const UPPER_CASE_WORD = /^[A-Z][A-Z0-9_]+$/;

/** What an import specifier without its extension (`../errors`) may name. */
const MODULE_ENDINGS = ['.ts', '.tsx', '.js', '.mjs'];

/**
 * The word as a repository path, or null when it is something else: a route (`/auth/login`),
 * a URL, a package (`@hookform/resolvers/zod`), a placeholder, or a build output (`dist/…`).
 */
function asRepoPath(word) {
  const ref = word.replace(/#.*$/, '').trim();
  if (!ref || ref.startsWith('/') || ref.startsWith('@') || NOT_A_PATH.test(ref)) return null;
  if (!ref.includes('/') && !FILE_ENDINGS.test(ref)) return null;
  const segments = ref.split('/').filter((segment) => segment && segment !== '.');
  const first = segments.find((segment) => segment !== '..');
  if (!first || GENERATED_ROOTS.has(first)) return null;
  if (segments.some((segment) => UPPER_CASE_WORD.test(segment))) return null;
  // A folder named like `ctx.put` is code (`ctx.put/remove`); `.ci/` and `../` are folders.
  if (segments.slice(0, -1).some((segment) => /^[^.].*\./.test(segment))) return null;
  return ref;
}

/**
 * Every path a README names in backticks or as a link target, outside fenced code blocks, with
 * its line (1-based). URLs and anchors-only links are not paths; a link's `#anchor` is dropped.
 */
export function pathReferences(markdown) {
  const refs = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const words = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/^[a-z]+:/i.test(match[1])) words.push({ at: match.index, word: match[1] });
    }
    for (const match of text
      .replace(/\]\([^)]*\)/g, (link) => ' '.repeat(link.length))
      .matchAll(/`([^`]+)`/g)) {
      words.push({ at: match.index, word: match[1] });
    }
    words.sort((a, b) => a.at - b.at);
    for (const { word } of words) {
      const ref = asRepoPath(word);
      if (ref) refs.push({ ref, line: index + 1 });
    }
  });
  return refs;
}

/** `a/b/../c` → `a/c`; null when it climbs above the repository root. */
function normalize(path) {
  const out = [];
  for (const segment of path.split('/')) {
    if (!segment || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * The paths a README at `readmePath` (repository-relative) names that do not exist. A path is
 * found relative to the README's folder or any folder above it up to the root (so a server
 * README may say `domain/payout.ts`), also as an import specifier without its extension
 * (`../errors`). A bare name (`group-access.ts`, `meta/`) may lie anywhere in the repository.
 * `repo` answers `exists(path)` and `filesUnder(folder)` for repository-relative paths ('' is
 * the root).
 */
export function missingReadmePaths(readmePath, markdown, repo) {
  const folder = readmePath.includes('/') ? readmePath.slice(0, readmePath.lastIndexOf('/')) : '';
  const bases = [];
  for (let base = folder; ; base = base.includes('/') ? base.slice(0, base.lastIndexOf('/')) : '') {
    bases.push(base);
    if (base === '') break;
  }
  const isFound = (ref) => {
    const bare = ref.replace(/\/$/, '');
    for (const base of bases) {
      const path = normalize(base ? `${base}/${bare}` : bare);
      if (path === null) continue;
      if (repo.exists(path)) return true;
      if (!ref.endsWith('/') && MODULE_ENDINGS.some((ending) => repo.exists(path + ending))) {
        return true;
      }
    }
    if (bare.includes('/')) return false;
    return repo
      .filesUnder('')
      .some((file) => file === bare || file.endsWith(`/${bare}`) || file.includes(`/${bare}/`));
  };
  return pathReferences(markdown).filter(({ ref }) => !isFound(ref));
}

/**
 * The citations of briefing files a clone lacks: the upper-case ARCHITECTURE, CONVENTIONS and
 * DESIGN notes, the numbered spec documents and the brief, and the folder they lived in. Our
 * own docs (docs/architecture.md and the rest) are lower case and never match.
 */
export const OUTSIDE_CITATIONS = [
  /ARCHITECTURE\.md/,
  /CONVENTIONS\.md/,
  /DESIGN\.md/,
  /\bspec 0\d\b/i,
  /0{2}-brief/,
  /\/work\/shared/,
];

/** One hit per line that cites a file outside the repository: its line (1-based), the match and the line. */
export function findOutsideCitations(text) {
  const hits = [];
  text.split('\n').forEach((line, index) => {
    for (const pattern of OUTSIDE_CITATIONS) {
      const match = pattern.exec(line);
      if (match) {
        hits.push({ line: index + 1, match: match[0], text: line });
        break;
      }
    }
  });
  return hits;
}
