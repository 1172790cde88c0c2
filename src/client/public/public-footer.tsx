import { Link } from 'react-router-dom';
import styles from './public-footer.module.css';

const FOOTER_LINKS = [
  { to: '/about', label: 'About' },
  { to: '/how-it-works', label: 'How it works' },
  { to: '/blog', label: 'Blog' },
  { to: '/terms-conditions', label: 'Terms' },
  { to: '/privacy-policy', label: 'Privacy' },
] as const;

/** The links every public page ends with, and the promise Hunch makes on every one of them. */
export function PublicFooter() {
  return (
    <footer className={styles.footer}>
      <nav aria-label="About Hunch" className={styles.nav}>
        <ul className={styles.links}>
          {FOOTER_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={styles.link}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className={styles.note}>Hunch is played with virtual points only. No real money, ever.</p>
      <p className={styles.note}>© {new Date().getFullYear()} Hunch</p>
    </footer>
  );
}
