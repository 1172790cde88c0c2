import { describe, expect, it } from 'vitest';
import {
  cyclesOf,
  folderGraph,
  importsOf,
  layerProblems,
  layersOf,
  nodeOf,
  resolveImport,
} from '../../scripts/check-layers-lib.mjs';

describe('the imports of a file', () => {
  it('takes imports, types, re-exports, side effects and dynamic imports, relative ones only', () => {
    const text = [
      "import { a } from '../groups/group-access';",
      "import type {\n  AuthUser,\n} from '../auth/tokens';",
      "export { b } from './bets.service';",
      "import './side-effect';",
      "const c = await import('../mirror/mirror.service');",
      "import { z } from 'zod';",
      "const text = 'export nothing'; const d = 'from here';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '../groups/group-access',
      '../auth/tokens',
      './bets.service',
      './side-effect',
      '../mirror/mirror.service',
    ]);
  });

  it('resolves a path against its file and names its node', () => {
    expect(resolveImport('bets/bets.routes.ts', '../sync/writes')).toBe('sync/writes');
    expect(resolveImport('bets/bets.routes.ts', '../../domain/sync')).toBe('../domain/sync');
    expect(resolveImport('app.ts', './bets/bets.routes')).toBe('bets/bets.routes');
    expect(nodeOf('bets/bets.routes')).toBe('bets');
    expect(nodeOf('errors')).toBe('(kernel)');
    expect(nodeOf('app')).toBe('(composition)');
    expect(nodeOf('../domain/sync')).toBeNull();
  });
});

describe('the folder graph', () => {
  const files = {
    'app.ts': "import { x } from './sync/push';\nimport { e } from './errors';",
    'errors.ts': "import { z } from '../domain/schemas/zod';",
    'sync/push.ts': "import { w } from '../bets/bets.routes';",
    'bets/bets.routes.ts': "import { r } from '../sync/writes';\nimport { e } from '../errors';",
    'bets/bets.service.ts': "import { s } from './bet-data';",
  };

  it('has an edge per pair of nodes with the imports behind it, none inside a folder', () => {
    expect(Object.fromEntries(folderGraph(files))).toEqual({
      '(composition) -> sync': ['app.ts => sync/push'],
      '(composition) -> (kernel)': ['app.ts => errors'],
      'sync -> bets': ['sync/push.ts => bets/bets.routes'],
      'bets -> sync': ['bets/bets.routes.ts => sync/writes'],
      'bets -> (kernel)': ['bets/bets.routes.ts => errors'],
    });
  });

  it('fails on a cycle, naming the imports behind it', () => {
    const problems = layerProblems(folderGraph(files), []);
    expect(problems).toEqual([
      [
        'folders importing each other: bets, sync',
        '  sync -> bets: sync/push.ts => bets/bets.routes',
        '  bets -> sync: bets/bets.routes.ts => sync/writes',
      ].join('\n'),
    ]);
  });

  it('passes with the back import allowed, and fails once the allowance is no longer needed', () => {
    expect(layerProblems(folderGraph(files), ['bets -> sync'])).toEqual([]);
    const cut = { ...files, 'bets/bets.routes.ts': "import { e } from '../errors';" };
    expect(layerProblems(folderGraph(cut), ['bets -> sync'])).toEqual([
      'allowed back import "bets -> sync" is gone: remove it from the list',
    ]);
    const oneWay = { ...files, 'sync/push.ts': "import { e } from '../errors';" };
    expect(layerProblems(folderGraph(oneWay), ['bets -> sync'])).toEqual([
      'allowed back import "bets -> sync" closes no cycle any more: remove it from the list',
    ]);
  });

  it('finds cycles through several folders and orders an acyclic graph in layers', () => {
    expect(cyclesOf(['a -> b', 'b -> c', 'c -> a', 'c -> d'])).toEqual([['a', 'b', 'c']]);
    expect(layersOf(['a -> b', 'b -> c', 'a -> c', 'd -> c'])).toEqual([['c'], ['b', 'd'], ['a']]);
  });
});
