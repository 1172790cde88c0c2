import { useEffect } from 'react';

/** Each screen names itself in the tab and for screen readers: "Sign in · Hunch". */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Hunch` : 'Hunch';
  }, [title]);
}
