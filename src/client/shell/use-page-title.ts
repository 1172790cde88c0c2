import { useEffect } from 'react';

/** The tab's title for a screen's title: "Sign in · Hunch", or "Hunch" for none. */
export const documentTitle = (title: string) => (title ? `${title} · Hunch` : 'Hunch');

/** Each screen names itself in the tab and for screen readers: "Sign in · Hunch". */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
