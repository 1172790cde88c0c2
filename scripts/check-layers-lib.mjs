// The rules of scripts/check-layers.mjs, apart so that tests/scripts/check-layers.test.ts can
// feed them made-up files. The server's folders (src/server/<folder>/) and its root files form
// a graph of imports that must run one way: no folder imports another that imports it back,
// directly or through others.

/** The root files that compose the app: they may import anything, and nothing imports them. */
export const COMPOSITION_FILES = new Set(['app.ts', 'main.ts']);
export const COMPOSITION = '(composition)';
/** The other root files: the shared kernel (errors, config, events, …). */
export const KERNEL = '(kernel)';

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*\(?\s*['"]([^'"]+)['"]/g;

/** The relative paths a TypeScript file imports (types, re-exports and dynamic imports too). */
export function importsOf(text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = match[1] ?? match[2];
    if (target.startsWith('.')) found.push(target);
  }
  return found;
}

/** Resolves `target`, imported by `file` (both relative to src/server, forward slashes). */
export function resolveImport(file, target) {
  const parts = file.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') {
      if (parts.length === 0 || parts[parts.length - 1] === '..') parts.push('..');
      else parts.pop();
    } else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** A file's node in the graph: its folder, or the kernel or the composition for a root file. */
export function nodeOf(file) {
  if (file.startsWith('../')) return null; // outside src/server: the domain, packages
  const slash = file.indexOf('/');
  if (slash !== -1) return file.slice(0, slash);
  const name = /\.tsx?$/.test(file) ? file : `${file}.ts`;
  return COMPOSITION_FILES.has(name) ? COMPOSITION : KERNEL;
}

/**
 * The graph of `files` (path relative to src/server → its text): each edge `a -> b` with the
 * imports behind it (`file => target`).
 */
export function folderGraph(files) {
  const edges = new Map();
  for (const [file, text] of Object.entries(files)) {
    const from = nodeOf(file);
    for (const target of importsOf(text)) {
      const resolved = resolveImport(file, target);
      const to = nodeOf(resolved);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push(`${file} => ${resolved}`);
    }
  }
  return edges;
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
export function cyclesOf(edgeKeys) {
  const next = new Map();
  for (const key of edgeKeys) {
    const [from, to] = key.split(' -> ');
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * What is wrong with `edges` given the back imports still `allowed` (each `a -> b`): a cycle
 * left once they are set aside, listed with the imports behind its edges; an allowed edge
 * that no longer exists or no longer closes a cycle (the list only shrinks).
 */
export function layerProblems(edges, allowed) {
  const problems = [];
  const inCycle = new Set();
  for (const component of cyclesOf(edges.keys())) {
    const members = new Set(component);
    for (const key of edges.keys()) {
      const [from, to] = key.split(' -> ');
      if (members.has(from) && members.has(to)) inCycle.add(key);
    }
  }
  for (const key of allowed) {
    if (!edges.has(key))
      problems.push(`allowed back import "${key}" is gone: remove it from the list`);
    else if (!inCycle.has(key))
      problems.push(
        `allowed back import "${key}" closes no cycle any more: remove it from the list`,
      );
  }
  const kept = [...edges.keys()].filter((key) => !allowed.includes(key));
  for (const component of cyclesOf(kept)) {
    const members = new Set(component);
    const lines = [`folders importing each other: ${component.join(', ')}`];
    for (const key of kept) {
      const [from, to] = key.split(' -> ');
      if (members.has(from) && members.has(to))
        for (const use of edges.get(key)) lines.push(`  ${key}: ${use}`);
    }
    problems.push(lines.join('\n'));
  }
  return problems;
}

/** The nodes in layers, lowest first: each imports only layers before its own (given no cycle). */
export function layersOf(edgeKeys) {
  const below = new Map();
  for (const key of edgeKeys) {
    const [from, to] = key.split(' -> ');
    if (!below.has(from)) below.set(from, new Set());
    if (!below.has(to)) below.set(to, new Set());
    below.get(from).add(to);
  }
  const layers = [];
  const placed = new Set();
  while (placed.size < below.size) {
    const layer = [...below.keys()]
      .filter((node) => !placed.has(node) && [...below.get(node)].every((to) => placed.has(to)))
      .sort();
    if (layer.length === 0) break; // a cycle: the rest has no order
    layers.push(layer);
    for (const node of layer) placed.add(node);
  }
  return layers;
}
