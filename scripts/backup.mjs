// `npm run backup` / `npm run restore`: runs src/server/db/backup-cli.ts from the server bundle
// (dist/server/backup-cli.js, built when missing or stale), as scripts/start.mjs runs the server.
import { pathToFileURL } from 'node:url';
import { at, ensureServerBundle } from './server-bundle.mjs';

const [command, ...args] = process.argv.slice(2);
if (command !== 'backup' && command !== 'restore') {
  console.error('Usage: node scripts/backup.mjs backup|restore [arguments]');
  process.exit(2);
}
const bundle = at('dist/server/backup-cli.js');
ensureServerBundle(bundle);
const { runBackupCli } = await import(pathToFileURL(bundle).href);
process.exitCode = await runBackupCli(command, args);
