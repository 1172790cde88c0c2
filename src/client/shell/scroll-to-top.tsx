import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** The content scrolls to the top on every navigation (docs/accounts-and-shell.md §2). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
