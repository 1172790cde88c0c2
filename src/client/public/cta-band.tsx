import { useId } from 'react';
import { ButtonLink } from './button-link';
import styles from './cta-band.module.css';

type CtaBandProps = {
  title: string;
  text: string;
  to: string;
  label: string;
};

/** The closing invitation of a public page: one sentence and one button. */
export function CtaBand({ title, text, to, label }: CtaBandProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={styles.band}>
      <h2 id={headingId} className={styles.title}>
        {title}
      </h2>
      <p className={styles.text}>{text}</p>
      <ButtonLink to={to}>{label}</ButtonLink>
    </section>
  );
}
