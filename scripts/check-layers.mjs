// The server's folders import one way (part of `npm run lint`): the folders of src/server, its
// shared kernel (the root files) and its composition (app.ts, main.ts) form a graph of imports
// with no cycle: no two of them import each other, directly or through others (types count).
// BACK_IMPORTS lists the edges that still run back up, set aside until they are cut; the list
// only shrinks: an entry that is gone or closes no cycle any more fails too. `--list` prints
// the layers, lowest first, and every edge with its imports, then exits 0.
// The rules: scripts/check-layers-lib.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderGraph, layerProblems, layersOf } from './check-layers-lib.mjs';

/** The imports that still run back up (each `importer -> imported`), to be cut, never added to. */
const BACK_IMPORTS = [
  '(kernel) -> auth',
  '(kernel) -> db',
  '(kernel) -> mirror',
  'auth -> bets',
  'auth -> comments',
  'auth -> groups',
  'auth -> mirror',
  'auth -> notifications',
  'auth -> push',
  'auth -> seasons',
  'bets -> webhooks',
  'groups -> webhooks',
];

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/server');

/** Every TypeScript file of src/server (path relative to it → its text). */
function readFiles(folder = '', files = {}) {
  for (const entry of readdirSync(path.join(server, folder), { withFileTypes: true })) {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) readFiles(relative, files);
    else if (/\.tsx?$/.test(entry.name))
      files[relative] = readFileSync(path.join(server, relative), 'utf8');
  }
  return files;
}

const edges = folderGraph(readFiles());
if (process.argv.includes('--list')) {
  const forward = [...edges.keys()].filter((key) => !BACK_IMPORTS.includes(key));
  layersOf(forward).forEach((layer, at) => console.log(`layer ${at}: ${layer.join(' ')}`));
  for (const [key, uses] of [...edges].sort()) {
    const back = BACK_IMPORTS.includes(key) ? ' (back)' : '';
    console.log(`${key}${back}\n${uses.map((use) => `  ${use}`).join('\n')}`);
  }
} else {
  const problems = layerProblems(edges, BACK_IMPORTS);
  for (const problem of problems) console.log(problem);
  if (problems.length > 0) {
    console.error(
      `check-layers: ${problems.length} problem(s). Import down: move what two folders share ` +
        'to a lower one (src/server/README.md, "Layers").',
    );
    process.exitCode = 1;
  }
}
