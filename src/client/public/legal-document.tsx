import type { ReactNode } from 'react';
import { PublicPage } from './public-page';
import styles from './legal-document.module.css';

type LegalDocumentProps = {
  title: string;
  lastUpdated: string;
  intro: ReactNode;
  summary: ReactNode;
  children: ReactNode;
};

/**
 * The terms and the privacy policy: numbered sections in a readable column, with "The short
 * version" beside them on a desktop and above them on a phone.
 */
export function LegalDocument({
  title,
  lastUpdated,
  intro,
  summary,
  children,
}: LegalDocumentProps) {
  return (
    <PublicPage>
      <div className={styles.layout}>
        <div className={styles.header}>
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.updated}>Last updated {lastUpdated}</p>
          <div className={styles.intro}>{intro}</div>
        </div>
        <section className={styles.summary} aria-labelledby="legal-summary-title">
          <h2 id="legal-summary-title" className={styles.summaryTitle}>
            The short version
          </h2>
          <ul className={styles.summaryList}>{summary}</ul>
        </section>
        <div className={styles.sections}>{children}</div>
      </div>
    </PublicPage>
  );
}

type LegalSectionProps = {
  number: number;
  title: string;
  children: ReactNode;
};

/** One numbered section: its <h2> reads "3. Your account", and #section-3 links to it. */
export function LegalSection({ number, title, children }: LegalSectionProps) {
  return (
    <section
      id={`section-${number}`}
      aria-labelledby={`section-${number}-title`}
      className={styles.section}
    >
      <h2 id={`section-${number}-title`} className={styles.sectionTitle}>
        <span className={styles.sectionNumber}>{number}.</span> {title}
      </h2>
      {children}
    </section>
  );
}
