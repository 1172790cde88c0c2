import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { build as viteBuild, type Plugin, type Rollup } from 'vite';
import type { RenderedPublicPage } from '../src/client/static-pages';
import { publicPageFile } from '../src/domain/public-pages';

// The public pages (/landing, /how-it-works, /about, /blog, /terms-conditions,
// /privacy-policy) drawn to HTML while Vite builds the client: src/client/static-pages.tsx
// renders the SPA's own shell and page components with react-dom/server, and each page is
// written to pages/<name>.html (src/domain/public-pages.ts) with the CSS the SPA loads for
// that route and one small classic script (src/client/public-page-boot.ts) instead of React.
// The server answers a full load of those paths (and of "/") with them, the service worker
// too, offline; links (/login, /register, …) are plain links into the SPA. Emitted in
// generateBundle, so the service worker plugin's closeBundle finds and precaches them.

const RENDER_ENTRY = 'src/client/static-pages.tsx';
const BOOT_ENTRY = 'src/client/public-page-boot.ts';

/** What static-pages.tsx exports. */
interface RenderModule {
  renderPublicPages: () => RenderedPublicPage[];
}

/** Builds static-pages.tsx for Node (npm packages stay external) and runs it. */
async function renderPublicPages(root: string): Promise<RenderedPublicPage[]> {
  // Inside the repository, so the built module finds react and the rest in node_modules.
  const cacheDir = path.join(root, 'node_modules/.cache');
  mkdirSync(cacheDir, { recursive: true });
  const outDir = mkdtempSync(path.join(cacheDir, 'hunch-public-pages-'));
  try {
    const output = (await viteBuild({
      configFile: false,
      root: path.join(root, 'src/client'),
      // Vite's default public folder, src/client/public, holds the pages' sources, not files.
      publicDir: false,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        ssr: path.join(root, RENDER_ENTRY),
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        minify: false,
      },
    })) as Rollup.RollupOutput;
    const entry = output.output.find((file) => file.type === 'chunk' && file.isEntry);
    if (!entry) throw new Error(`${RENDER_ENTRY} built no entry`);
    const module = (await import(
      pathToFileURL(path.join(outDir, entry.fileName)).href
    )) as RenderModule;
    return module.renderPublicPages();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The boot script as one classic script, with the SPA's entry put in. */
async function bundleBootScript(root: string, appEntry: string): Promise<string> {
  const result = await esbuild({
    entryPoints: [path.join(root, BOOT_ENTRY)],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2020',
    minify: true,
    logLevel: 'warning',
    define: { __HUNCH_APP_ENTRY__: JSON.stringify(appEntry) },
  });
  return result.outputFiles[0]!.text;
}

/** The CSS files a chunk loads with it, those of its imports first (the order Vite adds them). */
function cssOf(bundle: Rollup.OutputBundle, fileName: string, seen = new Set<string>()): string[] {
  if (seen.has(fileName)) return [];
  seen.add(fileName);
  const chunk = bundle[fileName];
  if (chunk?.type !== 'chunk') return [];
  return [
    ...chunk.imports.flatMap((imported) => cssOf(bundle, imported, seen)),
    ...(chunk.viteMetadata?.importedCss ?? []),
  ];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function publicPagesPlugin({ root }: { root: string }): Plugin {
  return {
    name: 'hunch-public-pages',
    apply: 'build',
    // After Vite's own plugins: index.html and the chunks' CSS are in the bundle by then.
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const indexHtml = bundle['index.html'];
      const entry = Object.values(bundle).find(
        (file): file is Rollup.OutputChunk => file.type === 'chunk' && file.isEntry,
      );
      if (indexHtml?.type !== 'asset' || !entry)
        throw new Error('public pages: the client build has no index.html or entry');
      const chunkOf = (source: string) =>
        Object.values(bundle).find(
          (file): file is Rollup.OutputChunk =>
            file.type === 'chunk' &&
            Boolean(file.facadeModuleId?.endsWith(`/src/client/${source}`)),
        );
      const bootRef = this.emitFile({
        type: 'asset',
        name: 'public-page.js',
        source: await bundleBootScript(root, `/${entry.fileName}`),
      });
      const bootScript = `/${this.getFileName(bootRef)}`;
      // index.html's head without the SPA's module script and its preloads.
      const head = String(indexHtml.source)
        .replace(/^[\s\S]*<head>/, '')
        .replace(/<\/head>[\s\S]*$/, '')
        .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
        .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
        .replace(/\s*<link rel="stylesheet"[^>]*>/g, '')
        .replace(/\s*<title>[^<]*<\/title>/, '')
        .trimEnd();
      for (const page of await renderPublicPages(root)) {
        const chunk = chunkOf(page.source);
        if (!chunk) throw new Error(`public pages: no chunk for ${page.path}`);
        const styles = [
          ...new Set([...cssOf(bundle, entry.fileName), ...cssOf(bundle, chunk.fileName)]),
        ];
        const missing = missingClasses(
          page.rootMarkup,
          styles.map((file) => bundle[file]),
        );
        if (missing.length > 0)
          throw new Error(
            `public pages: ${page.path} uses classes no CSS defines: ${missing.join(' ')}`,
          );
        const fileName = publicPageFile(page.path);
        if (!fileName) throw new Error(`public pages: ${page.path} is not a public page's path`);
        this.emitFile({
          type: 'asset',
          fileName,
          source: `<!doctype html>
<html lang="en">
  <head>${head}
    <title>${escapeHtml(page.documentTitle)}</title>
${styles.map((file) => `    <link rel="stylesheet" crossorigin href="/${file}">`).join('\n')}
    <script src="${bootScript}"></script>
  </head>
  <body>
    <div id="root">${withoutStyleAttributes(page.rootMarkup)}</div>
  </body>
</html>
`,
        });
      }
    },
  };
}

/**
 * The Content-Security-Policy (style-src 'self', src/server/app.ts) refuses style attributes
 * in markup; React sets them through the DOM instead. The shell has one, the offline status
 * region's sticky place, empty while online: the static page leaves it out.
 */
function withoutStyleAttributes(markup: string): string {
  return markup.replace(/ style="[^"]*"/g, '');
}

/** CSS Module classes (name_hash_n) of the markup that none of the page's CSS files defines. */
function missingClasses(markup: string, files: Array<Rollup.OutputBundle[string] | undefined>) {
  const css = files.map((file) => (file?.type === 'asset' ? String(file.source) : '')).join('\n');
  const classes = new Set(
    [...markup.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1]!.split(/\s+/)),
  );
  return [...classes].filter((name) => /^_/.test(name) && !css.includes(`.${name}`));
}
