// Bundles the server (src/server/main.ts and what it imports from src/domain) into
// dist/server/main.js with esbuild, and the backup commands (src/server/db/backup-cli.ts, run
// by scripts/backup.mjs) into dist/server/backup-cli.js, the operator's commands
// (src/server/admin/admin-cli.ts, run by scripts/admin.mjs) into dist/server/admin-cli.js, and copies the SQL migrations next to
// them, where src/server/db/connect.ts looks for them. npm packages stay external: they are
// loaded from node_modules at run time.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist/server');

rmSync(outDir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(root, 'src/server/main.ts'),
    'backup-cli': path.join(root, 'src/server/db/backup-cli.ts'),
    'admin-cli': path.join(root, 'src/server/admin/admin-cli.ts'),
  },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync(path.join(root, 'src/server/db/migrations'), path.join(outDir, 'migrations'), {
  recursive: true,
});
console.log(`server bundled into ${path.relative(process.cwd(), outDir) || '.'}/`);
