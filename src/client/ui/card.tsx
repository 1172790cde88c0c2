import type { HTMLAttributes } from 'react';
import styles from './card.module.css';

interface CardProps extends HTMLAttributes<HTMLElement> {
  as?: 'section' | 'div' | 'article';
  padding?: 'normal' | 'roomy';
}

export function Card({ as: Tag = 'section', padding = 'normal', className, ...rest }: CardProps) {
  return (
    <Tag
      className={[styles.card, styles[padding], className].filter(Boolean).join(' ')}
      {...rest}
    />
  );
}
