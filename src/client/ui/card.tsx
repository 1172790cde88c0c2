import type { HTMLAttributes, Ref } from 'react';
import styles from './card.module.css';

interface CardProps extends HTMLAttributes<HTMLElement> {
  as?: 'section' | 'div' | 'article';
  padding?: 'normal' | 'roomy';
  ref?: Ref<HTMLElement>;
}

export function Card({
  as: Tag = 'section',
  padding = 'normal',
  className,
  ref,
  ...rest
}: CardProps) {
  return (
    <Tag
      // Typed as a div's for the tag union; the caller only ever reads it as an HTMLElement.
      ref={ref as Ref<HTMLDivElement>}
      className={[styles.card, styles[padding], className].filter(Boolean).join(' ')}
      {...rest}
    />
  );
}
