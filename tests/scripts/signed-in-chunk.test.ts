import { describe, expect, it } from 'vitest';
import { signedInModules } from '../../scripts/signed-in-chunk';

// A small module graph shaped like the client's: the entry (React, the shell), the dashboard
// and the local data as lazy chunks, a sign-in page sharing a button with the dashboard.
const ROOT = '/repo';
const at = (file: string) => `${ROOT}/${file}`;

const GRAPH: Record<string, { imports?: string[]; lazy?: string[] }> = {
  'src/client/main.tsx': {
    imports: ['node_modules/react/index.js', 'src/client/app.tsx'],
  },
  'src/client/app.tsx': {
    imports: ['src/client/shell/app-header.tsx'],
    lazy: ['src/client/dashboard/dashboard-page.tsx', 'src/client/auth/login-page.tsx'],
  },
  'src/client/shell/app-header.tsx': {
    imports: ['node_modules/react/index.js'],
    lazy: [
      'src/client/shell/header-group-corner.tsx',
      'src/client/shell/inbox-bell.tsx',
      'src/client/pwa/sync-status-button.tsx',
      'src/client/data/local-data.ts',
      'src/client/push/push-session.ts',
    ],
  },
  'src/client/dashboard/dashboard-page.tsx': {
    imports: [
      'node_modules/react/index.js',
      'src/client/dashboard/bet-queue.tsx',
      'src/client/ui/button.tsx',
    ],
  },
  'src/client/dashboard/bet-queue.tsx': { imports: ['src/client/data/db.ts'] },
  'src/client/data/local-data.ts': {
    imports: ['src/client/data/db.ts', 'node_modules/socket.io-client/index.js'],
  },
  'src/client/data/db.ts': { imports: ['node_modules/dexie/dexie.js'] },
  'src/client/auth/login-page.tsx': { imports: ['src/client/ui/button.tsx'] },
  'src/client/shell/header-group-corner.tsx': {},
  'src/client/shell/inbox-bell.tsx': {},
  'src/client/pwa/sync-status-button.tsx': { imports: ['src/client/data/db.ts'] },
  'src/client/push/push-session.ts': {},
  'src/client/ui/button.tsx': {},
  'node_modules/react/index.js': {},
  'node_modules/socket.io-client/index.js': {},
  'node_modules/dexie/dexie.js': {},
};

function moduleInfo(graph: typeof GRAPH) {
  return (id: string) => {
    const node = graph[id.slice(ROOT.length + 1)];
    return node
      ? {
          importedIds: (node.imports ?? []).map(at),
          dynamicallyImportedIds: (node.lazy ?? []).map(at),
        }
      : null;
  };
}

describe('the signed-in chunk', () => {
  it('holds what the dashboard loads, Dexie and socket.io among it', () => {
    const members = signedInModules(ROOT, moduleInfo(GRAPH));
    expect([...members].sort()).toEqual(
      [
        'node_modules/dexie/dexie.js',
        'node_modules/socket.io-client/index.js',
        'src/client/dashboard/bet-queue.tsx',
        'src/client/dashboard/dashboard-page.tsx',
        'src/client/data/db.ts',
        'src/client/data/local-data.ts',
        'src/client/push/push-session.ts',
        'src/client/pwa/sync-status-button.tsx',
        'src/client/shell/header-group-corner.tsx',
        'src/client/shell/inbox-bell.tsx',
      ].map(at),
    );
  });

  it('leaves out the entry and whatever a sign-in page also needs', () => {
    const members = signedInModules(ROOT, moduleInfo(GRAPH));
    expect(members.has(at('node_modules/react/index.js'))).toBe(false);
    expect(members.has(at('src/client/ui/button.tsx'))).toBe(false);
    expect(members.has(at('src/client/auth/login-page.tsx'))).toBe(false);
  });

  it('fails the build when one of its roots is gone, rather than quietly splitting again', () => {
    const { ['src/client/data/local-data.ts']: _gone, ...rest } = GRAPH;
    expect(() => signedInModules(ROOT, moduleInfo(rest))).toThrow(
      'src/client/data/local-data.ts is not in the build',
    );
  });
});
