import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

// Builds the service worker (src-sw/sw.ts) into the client's output folder once Vite has
// written the client, and injects the precache manifest: every built file with a revision
// (hashed files under assets/ carry it in their name). The same job as workbox-build's
// injectManifest, in a few lines, with the esbuild the server build already uses; so
// `vite build` (and `npm run build`) stays one command and needs no network.

const SW_ENTRY = 'src-sw/sw.ts';
const SW_FILE = 'sw.js';
/** Not precached: source maps, the worker itself, files for crawlers. */
const SKIPPED = [/\.map$/, /^sw\.js$/, /^robots\.txt$/, /^og-image\.png$/, /\.(gz|br)$/];

export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** The precache manifest of a built client folder, sorted so identical builds inject identical lists. */
export function listPrecacheEntries(outDir: string): PrecacheEntry[] {
  const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(outDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .filter((file) => !SKIPPED.some((pattern) => pattern.test(file)))
    .sort();
  return files.map((file) => ({
    url: `/${file}`,
    revision: file.startsWith('assets/')
      ? null
      : createHash('md5')
          .update(readFileSync(path.join(outDir, file)))
          .digest('hex'),
  }));
}

export function serviceWorkerPlugin({ root }: { root: string }): Plugin {
  let outDir = '';
  return {
    name: 'hunch-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const manifest = listPrecacheEntries(outDir);
      await build({
        entryPoints: [path.join(root, SW_ENTRY)],
        outfile: path.join(outDir, SW_FILE),
        bundle: true,
        format: 'iife',
        target: 'es2020',
        minify: true,
        sourcemap: true,
        logLevel: 'warning',
        // Workbox strips its development logging when NODE_ENV is production.
        define: {
          'self.__WB_MANIFEST': JSON.stringify(manifest),
          'process.env.NODE_ENV': '"production"',
        },
      });
      this.info?.(`service worker: ${SW_FILE} with ${manifest.length} precached files`);
    },
  };
}
