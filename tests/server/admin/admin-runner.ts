import { runAdminCli } from '../../../src/server/admin/admin-cli';

// `npm run admin -- …` from source (scripts/admin.mjs runs the same function from the bundle):
// the admin tests start it as a process of its own, as an operator does.
process.exitCode = await runAdminCli(process.argv.slice(2));
