import { Link, type LinkProps } from 'react-router-dom';
import styles from './button-link.module.css';

type ButtonLinkProps = LinkProps & {
  variant?: 'primary' | 'secondary';
};

/** A link styled as a button: public pages only ever send a visitor to another route. */
export function ButtonLink({ variant = 'primary', className, ...linkProps }: ButtonLinkProps) {
  const classes = [styles.button, styles[variant], className].filter(Boolean).join(' ');
  return <Link {...linkProps} className={classes} />;
}
