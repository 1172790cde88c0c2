// `npm start`: builds whatever is missing or out of date, then runs the bundled server
// (which migrates the database and serves the API and the PWA on one port). package.json runs
// it with `exec`: npm passes SIGTERM/SIGINT to its script's shell, and a shell that does not
// exec its command (dash) died of it and left this process serving on as an orphan
// (tests/server/start-signals.test.ts).
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SERVER_SOURCES, at, isStale, run } from './server-bundle.mjs';

const serverBundle = at('dist/server/main.js');

const hasClientSource = existsSync(at('src/client/index.html'));
const needsClient =
  hasClientSource &&
  isStale(at('dist/client/index.html'), ['src/client', 'src/domain', 'src-sw', 'public']);
// Every server bundle (the backup's and the admin commands' too) is built at once: one stale
// means all are.
const needsServer = ['main.js', 'backup-cli.js', 'admin-cli.js'].some((bundle) =>
  isStale(at('dist/server', bundle), SERVER_SOURCES),
);

if (needsClient) {
  run('npm', ['run', 'build']);
} else if (needsServer) {
  run(process.execPath, [at('scripts/build-server.mjs')]);
}

await import(pathToFileURL(serverBundle).href);
