import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LogoMark } from '../shell/app-header';
import { InviteNote } from './invite-note';
import styles from './auth-layout.module.css';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** The login page's heading is the product title itself (docs/accounts-and-shell.md §2). */
  isBrandHeading?: boolean;
  /** "?returnUrl=…" for the invite note when the invite is not in the address (the reset page). */
  inviteSearch?: string;
}

/** The frame of the account screens: the Hunch mark, who invited the visitor (if anyone), one card, the way back out below. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
  isBrandHeading = false,
  inviteSearch,
}: AuthLayoutProps) {
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <Link to="/" className={styles.brand} aria-label="Hunch home">
          <LogoMark size={isBrandHeading ? 56 : 40} />
        </Link>
        <div className={styles.intro}>
          <h1 className={isBrandHeading ? styles.brandTitle : styles.title}>{title}</h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </div>
        <InviteNote search={inviteSearch} />
        <div className={styles.card}>{children}</div>
        {footer && <div className={styles.footer}>{footer}</div>}
      </div>
    </div>
  );
}
