import type { ReactNode } from 'react';
import { usePageTitle } from './use-page-title';
import styles from './app-page.module.css';

interface AppPageProps {
  title: string;
  /** Visually hidden when the screen's own content already shows what it is. */
  isTitleHidden?: boolean;
  actions?: ReactNode;
  children: ReactNode;
}

/** The content column of a signed-in screen: centred, 640 px at most, with its h1. */
export function AppPage({ title, isTitleHidden = false, actions, children }: AppPageProps) {
  usePageTitle(title);
  return (
    <div className={styles.page}>
      <div className={isTitleHidden ? 'visually-hidden' : styles.heading}>
        <h1 className={styles.title}>{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
