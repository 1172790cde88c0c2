import { useId, type ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import styles from './public-page.module.css';

/**
 * The frame of every public page: a centred wide column under the shell's header, ending
 * with the public footer. The shell owns <main>; this is only its content.
 */
export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className={styles.page}>
      {children}
      <PublicFooter />
    </div>
  );
}

type PageIntroProps = {
  title: string;
  eyebrow?: string;
  lead?: ReactNode;
  children?: ReactNode;
};

/** The page's one <h1>, with an optional eyebrow line, lead paragraph and actions. */
export function PageIntro({ title, eyebrow, lead, children }: PageIntroProps) {
  return (
    <div className={styles.intro}>
      {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
      <h1 className={styles.title}>{title}</h1>
      {lead ? <p className={styles.lead}>{lead}</p> : null}
      {children ? <div className={styles.actions}>{children}</div> : null}
    </div>
  );
}

type PageSectionProps = {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
};

/** A titled part of a page (an <h2>), named by its title for assistive technology. */
export function PageSection({ title, intro, children }: PageSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {title}
      </h2>
      {intro ? <p className={styles.sectionIntro}>{intro}</p> : null}
      {children}
    </section>
  );
}
