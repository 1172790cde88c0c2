import { describe, expect, it } from 'vitest';
import {
  findOutsideCitations,
  missingReadmePaths,
  pathReferences,
} from '../../scripts/check-docs-lib.mjs';

// The fixtures name the briefing files in pieces, so this file never trips the check it tests.
const ARCH = 'ARCHI' + 'TECTURE.md';
const SPEC_02 = 'spec' + ' 02';
const SPEC_01 = 'Spec' + ' 01';
const DESIGN = 'DES' + 'IGN.md';

/** A repository of these files (folders implied), as the checker sees it. */
function repoOf(...files: string[]) {
  const all = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i += 1) all.add(parts.slice(0, i).join('/'));
  }
  return {
    exists: (path: string) => all.has(path),
    filesUnder: (folder: string) =>
      files.filter((file) => folder === '' || file.startsWith(`${folder}/`)),
  };
}

describe('the paths a README names', () => {
  it('takes backticked paths and link targets, and leaves routes, commands and packages alone', () => {
    const text = [
      'Start at `src/server/app.ts` and [the mirror](src/server/mirror/README.md#map).',
      'Calls: `GET /api/groups`, `/auth/users/me`, `npm run lint`, `@hookform/resolvers/zod`.',
      'Mails go to `DATA_DIR/outbox`, the build to `dist/client/sw.js`, see https://example.com/a.md.',
      'Names: `placeWager`, `schema.ts`, `{groupId}/x.ts`, `data/outbox/*.eml`, `ctx.put/remove`.',
      'SQL: `LISTEN/NOTIFY`; a folder: `.ci/run`.',
    ].join('\n');
    expect(pathReferences(text)).toEqual([
      { ref: 'src/server/app.ts', line: 1 },
      { ref: 'src/server/mirror/README.md', line: 1 },
      { ref: 'schema.ts', line: 4 },
      { ref: '.ci/run', line: 5 },
    ]);
  });

  it('resolves a path from the README folder, its parents, or (for a bare file name) below it', () => {
    const repo = repoOf(
      'src/server/db/schema.ts',
      'src/server/db/README.md',
      'src/domain/payout.ts',
      'docs/rules.md',
    );
    const readme = [
      '`schema.ts`, `../../domain/payout.ts`, `domain/payout.ts`, [rules](../../../docs/rules.md),',
      '`src/domain/payout.ts`, `migrations/0005_mirror.sql`, `src/domain/odds.ts`.',
    ].join('\n');
    expect(missingReadmePaths('src/server/db/README.md', readme, repo)).toEqual([
      { ref: 'migrations/0005_mirror.sql', line: 2 },
      { ref: 'src/domain/odds.ts', line: 2 },
    ]);
  });

  it('finds a bare file name anywhere under the README folder', () => {
    const repo = repoOf('src/client/styles/tokens.css', 'src/client/README.md');
    expect(missingReadmePaths('src/client/README.md', '`tokens.css`, `global.css`', repo)).toEqual([
      { ref: 'global.css', line: 1 },
    ]);
  });
});

describe('citations of files a clone does not have', () => {
  it('names each line that cites the briefing', () => {
    const text = [
      `// The payout (${ARCH} §5).`,
      `// ${SPEC_02} §4 "Bet card", and ${SPEC_01} §2.`,
      '// docs/architecture.md §5 and docs/groups-and-bets.md §4 are ours.',
      '// a specification 02 is not a citation; nor is respec 021.',
      `// see /work/${'shared'}/${DESIGN}`,
    ].join('\n');
    expect(findOutsideCitations(text).map((hit) => hit.line)).toEqual([1, 2, 5]);
  });

  it('says which pattern matched', () => {
    expect(findOutsideCitations('x 0' + '0-brief y')).toEqual([
      { line: 1, match: '0' + '0-brief', text: 'x 0' + '0-brief y' },
    ]);
  });
});
