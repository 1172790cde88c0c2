import { Newspaper } from 'lucide-react';
import { ButtonLink } from './button-link';
import { PublicPage } from './public-page';
import styles from './blog-page.module.css';

/** /blog: shown until the first posts are written (docs/accounts-and-shell.md §2 names its heading). */
export default function BlogPage() {
  return (
    <PublicPage>
      <div className={styles.comingSoon}>
        <span className={styles.icon}>
          <Newspaper size={32} />
        </span>
        <h1 className={styles.title}>Blog Coming Soon</h1>
        <p className={styles.text}>
          We're writing up tips for great bets, stories from groups like yours, and news about
          what's new in Hunch. Check back soon.
        </p>
        <p className={styles.text}>In the meantime, why not start a group of your own?</p>
        <ButtonLink to="/register">Get Started Free</ButtonLink>
      </div>
    </PublicPage>
  );
}
