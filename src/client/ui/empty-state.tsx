import type { ReactNode } from 'react';
import styles from './empty-state.module.css';

interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  headingLevel?: 'h2' | 'h3';
}

/** An empty state says what to do next (docs/design.md). */
export function EmptyState({
  icon,
  title,
  children,
  action,
  headingLevel: Heading = 'h2',
}: EmptyStateProps) {
  return (
    <div className={styles.empty}>
      {icon && (
        <div className={styles.icon} aria-hidden="true">
          {icon}
        </div>
      )}
      <Heading className={styles.title}>{title}</Heading>
      {children && <div className={styles.text}>{children}</div>}
      {action && <div className={styles.action}>{action}</div>}
    </div>
  );
}
