import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { createSessionStore } from './data/session-store';
import { SessionContext } from './data/use-session';
import AboutPage from './public/about-page';
import BlogPage from './public/blog-page';
import HowItWorksPage from './public/how-it-works-page';
import LandingPage from './public/landing-page';
import PrivacyPolicyPage from './public/privacy-policy-page';
import TermsPage from './public/terms-page';
import { AppShell } from './shell/app-shell';
import { documentTitle } from './shell/use-page-title';

// The public pages drawn to HTML at build time (scripts/vite-plugin-public-pages.ts), so a
// visitor's first load of /landing carries no React: the same shell and page components the
// SPA renders, for a signed-out visitor, with the titles app.tsx gives these routes. Never
// part of the client bundle: only the build imports it.

interface PublicPageEntry {
  path: string;
  title: string;
  page: ComponentType;
  /** The page's module, whose chunk's CSS the page links. */
  source: string;
}

const PUBLIC_PAGES: PublicPageEntry[] = [
  { path: '/landing', title: '', page: LandingPage, source: 'public/landing-page.tsx' },
  {
    path: '/how-it-works',
    title: 'How it works',
    page: HowItWorksPage,
    source: 'public/how-it-works-page.tsx',
  },
  { path: '/about', title: 'About', page: AboutPage, source: 'public/about-page.tsx' },
  { path: '/blog', title: 'Blog', page: BlogPage, source: 'public/blog-page.tsx' },
  {
    path: '/terms-conditions',
    title: 'Terms and Conditions',
    page: TermsPage,
    source: 'public/terms-page.tsx',
  },
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    page: PrivacyPolicyPage,
    source: 'public/privacy-policy-page.tsx',
  },
];

/** Storage that keeps nothing: the session a visitor has, signed out. */
class EmptyStorage implements Storage {
  readonly length = 0;
  clear() {}
  getItem() {
    return null;
  }
  key() {
    return null;
  }
  removeItem() {}
  setItem() {}
}

export interface RenderedPublicPage {
  /** The route, e.g. /landing. */
  path: string;
  /** Its page's module under src/client, e.g. public/landing-page.tsx. */
  source: string;
  /** The document title the SPA sets on this route. */
  documentTitle: string;
  /** The markup of the app root (what the SPA renders into #root), without the root itself. */
  rootMarkup: string;
}

export function renderPublicPages(): RenderedPublicPage[] {
  const signedOut = createSessionStore({
    storages: { persistent: new EmptyStorage(), temporary: new EmptyStorage() },
  });
  return PUBLIC_PAGES.map(({ path, title, page: Page, source }) => ({
    path,
    source,
    documentTitle: documentTitle(title),
    rootMarkup: renderToStaticMarkup(
      <SessionContext value={signedOut}>
        <StaticRouter location={path}>
          <Routes>
            <Route element={<AppShell />}>
              <Route path={path} element={<Page />} />
            </Route>
          </Routes>
        </StaticRouter>
      </SessionContext>,
    ),
  }));
}
