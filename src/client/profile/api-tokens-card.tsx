import { KeyRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClassName } from '../ui/button';
import { Card } from '../ui/card';
import styles from './api-tokens.module.css';

// Profile "API tokens": the way to the page where a full account makes and revokes them.
const TEXT = {
  title: 'API tokens',
  text: 'Let your own scripts and chat bots read your games or play for you, with a token you can revoke at any time.',
  manage: 'Manage API tokens',
};

export function ApiTokensCard() {
  return (
    <Card aria-labelledby="api-tokens">
      <h2 id="api-tokens" className={styles.cardTitle}>
        <KeyRound size={20} aria-hidden="true" className={styles.icon} />
        {TEXT.title}
      </h2>
      <p className={styles.text}>{TEXT.text}</p>
      <Link
        to="/profile/api-tokens"
        className={buttonClassName({ variant: 'secondary', fullWidth: true })}
      >
        {TEXT.manage}
      </Link>
    </Card>
  );
}
