import type { ReactNode } from 'react';
import styles from './step-list.module.css';

/** Numbered steps: an <ol>, so the order is announced, with a large visual number. */
export function StepList({ children }: { children: ReactNode }) {
  return <ol className={styles.list}>{children}</ol>;
}

type StepItemProps = {
  number: number;
  title: string;
  children: ReactNode;
};

export function StepItem({ number, title, children }: StepItemProps) {
  return (
    <li className={styles.step}>
      <div className={styles.header}>
        <span className={styles.number} aria-hidden="true">
          {number}
        </span>
        <h3 className={styles.title}>{title}</h3>
      </div>
      <div className={styles.body}>{children}</div>
    </li>
  );
}
