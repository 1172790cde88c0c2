// The public pages drawn to HTML at build time (scripts/vite-plugin-public-pages.ts): the
// client build writes each one to pages/<name>.html, and the server and the service worker
// answer a full load of its path with that file instead of the SPA's index.html. "/" is the
// landing page too: a visitor there lands on /landing, as the SPA sends them.

/** The folder of the client build that holds them. */
export const PUBLIC_PAGES_DIR = 'pages';

/** The path of the page a visitor at "/" is shown. */
export const LANDING_PATH = '/landing';

/** The built file a path's public page would be (/ and /landing → pages/landing.html), or null. */
export function publicPageFile(pathname: string): string | null {
  const route = pathname === '/' ? LANDING_PATH : pathname.replace(/(.)\/$/, '$1');
  const name = /^\/([a-z][a-z-]*)$/.exec(route)?.[1];
  return name ? `${PUBLIC_PAGES_DIR}/${name}.html` : null;
}
