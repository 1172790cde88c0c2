import path from 'node:path';
import type { CodeSplittingGroup, ModuleInfo } from 'rolldown';

// The signed-in first load in one chunk. Every screen and every part of the shell a visitor
// does not need is its own lazy chunk, so a signed-in player's dashboard fetched some forty
// small files; each of them is gzipped alone, which cost about 9 KB over the same code in one
// file. This group gathers the modules statically reachable from the lazy chunks the dashboard
// loads (the dashboard itself, the local data, the header's group corner, inbox bell and sync
// status, push) into one chunk, leaving out what the entry already holds (React, the router, the shell) and
// what the signed-out screens share, so the landing, sign-in and public pages load no more
// than before. Dexie and socket.io go with it: a signed-in player loads them first thing anyway.

const SIGNED_IN_ROOTS = [
  'src/client/dashboard/dashboard-page.tsx',
  'src/client/data/local-data.ts',
  'src/client/shell/header-group-corner.tsx',
  'src/client/shell/inbox-bell.tsx',
  'src/client/push/push-session.ts',
  'src/client/pwa/sync-status-button.tsx',
];
const ENTRY = 'src/client/main.tsx';
/** Lazy chunks a visitor can load: whatever they reach stays where Rolldown puts it. */
const SIGNED_OUT_LAZY = [
  /\/src\/client\/(auth|public)\//,
  /\/src\/client\/pwa\/register-service-worker\.tsx?$/,
  /\/src\/client\/shell\/modal-host\.tsx$/,
];

type GetModuleInfo = (
  id: string,
) => Pick<ModuleInfo, 'importedIds' | 'dynamicallyImportedIds'> | null;

function reachable(
  roots: Iterable<string>,
  getModuleInfo: GetModuleInfo,
  isDynamicFollowed = false,
): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = getModuleInfo(id);
    stack.push(...(info?.importedIds ?? []));
    if (isDynamicFollowed) stack.push(...(info?.dynamicallyImportedIds ?? []));
  }
  return seen;
}

/** The modules of the group: reached from the signed-in roots, never from what a visitor loads. */
export function signedInModules(root: string, getModuleInfo: GetModuleInfo): Set<string> {
  const moduleOf = (file: string) => {
    const id = path.join(root, file);
    if (!getModuleInfo(id)) throw new Error(`signed-in chunk: ${file} is not in the build`);
    return id;
  };
  const entry = moduleOf(ENTRY);
  const signedIn = reachable(SIGNED_IN_ROOTS.map(moduleOf), getModuleInfo);
  const lazyForVisitors = [...reachable([entry], getModuleInfo, true)].filter(
    (id) => !id.includes('/node_modules/') && SIGNED_OUT_LAZY.some((pattern) => pattern.test(id)),
  );
  const signedOut = reachable([entry, ...lazyForVisitors], getModuleInfo);
  return new Set([...signedIn].filter((id) => !signedOut.has(id)));
}

export function signedInChunk(root: string): CodeSplittingGroup {
  // Worked out once per chunking pass (the entry's module info is new in each, e.g. under --watch).
  const passes = new WeakMap<ModuleInfo, Set<string>>();
  return {
    debugName: 'signed-in',
    // What visitors load never imports the group's modules (they are left out of it just
    // for that), so the group needs none of its dependencies pulled in; pulling them would
    // move the entry's React and router out of the entry.
    includeDependenciesRecursively: false,
    name: (id, context) => {
      const getModuleInfo: GetModuleInfo = (each) => context.getModuleInfo(each);
      const pass = context.getModuleInfo(path.join(root, ENTRY));
      if (!pass) throw new Error(`signed-in chunk: ${ENTRY} is not in the build`);
      let members = passes.get(pass);
      if (!members) {
        members = signedInModules(root, getModuleInfo);
        passes.set(pass, members);
      }
      return members.has(id) ? 'signed-in' : null;
    },
  };
}
