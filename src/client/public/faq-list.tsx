import { ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './faq-list.module.css';

/** Questions as native <details>: keyboard and screen-reader friendly with no script. */
export function FaqList({ children }: { children: ReactNode }) {
  return <div className={styles.list}>{children}</div>;
}

export function FaqItem({ question, children }: { question: string; children: ReactNode }) {
  return (
    <details className={styles.item}>
      <summary className={styles.question}>
        <span>{question}</span>
        <ChevronDown className={styles.chevron} size={20} />
      </summary>
      <div className={styles.answer}>{children}</div>
    </details>
  );
}
