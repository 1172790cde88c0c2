import { Trophy } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useNow } from '../ui/use-now';
import { endsInText, useSeasons } from './use-seasons';
import styles from './seasons.module.css';

// The running season on the leaderboard: "Autumn cup · ends in 5 days", and the way to the
// seasons page (its podiums, and the admins' start and end). A lazy chunk of its own.

export function SeasonBanner({ groupId }: { groupId: number }) {
  const seasons = useSeasons(groupId);
  const now = useNow(60_000);
  if (!seasons) return null;
  const running = seasons.find((season) => season.state === 'active');
  const link = `/group/${groupId}/seasons`;
  if (!running)
    return (
      <p className={styles.quiet}>
        <Link to={link}>{seasons.length > 0 ? 'Past seasons' : 'Seasons'}</Link>
      </p>
    );
  return (
    <Link
      to={link}
      className={styles.banner}
      aria-label={`Season: ${running.name}, ${endsInText(running.endsAt, now)}`}
    >
      <Trophy size={18} aria-hidden="true" />
      <span className={styles.bannerName}>{running.name}</span>
      <span aria-hidden="true">·</span>
      <span className={styles.bannerWhen}>{endsInText(running.endsAt, now)}</span>
    </Link>
  );
}
