import styles from './spinner.module.css';

interface SpinnerProps {
  size?: 'small' | 'medium' | 'large';
  /** Read by screen readers; omit when the spinner sits next to visible text that says it. */
  label?: string;
  className?: string;
}

export function Spinner({ size = 'medium', label, className }: SpinnerProps) {
  return (
    <span
      className={[styles.spinner, styles[size], className].filter(Boolean).join(' ')}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}
