// `npm run admin -- users list|reset-password <email>|delete <email>|sessions-revoke <email>`:
// runs src/server/admin/admin-cli.ts from the server bundle (dist/server/admin-cli.js, built
// when missing or stale), as scripts/backup.mjs runs the backups.
import { pathToFileURL } from 'node:url';
import { at, ensureServerBundle } from './server-bundle.mjs';

const bundle = at('dist/server/admin-cli.js');
ensureServerBundle(bundle);
const { runAdminCli } = await import(pathToFileURL(bundle).href);
process.exitCode = await runAdminCli(process.argv.slice(2));
