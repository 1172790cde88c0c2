import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './feature-card.module.css';

type FeatureCardProps = {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
};

/** An icon, a short <h3> title and a sentence or two: features, use cases and values. */
export function FeatureCard({ icon: Icon, title, children }: FeatureCardProps) {
  return (
    <li className={styles.card}>
      <span className={styles.icon}>
        <Icon size={24} strokeWidth={2} />
      </span>
      <h3 className={styles.title}>{title}</h3>
      <div className={styles.body}>{children}</div>
    </li>
  );
}

/** The list that holds feature cards: one column on a phone, up to three on a desktop. */
export function FeatureGrid({ children, columns = 3 }: { children: ReactNode; columns?: 2 | 3 }) {
  return <ul className={columns === 2 ? styles.gridTwo : styles.grid}>{children}</ul>;
}
