import { Award } from 'lucide-react';
import type { NamedStanding } from '../data/round-results';
import styles from './rounds.module.css';

// A round's table (docs/rules.md "Tipping rounds"): points, then exact hits, differences and
// tendencies; a skipped match scores 0. Once every match is settled its best are marked
// "Matchday winner" (ties: all of them).

export function RoundTable({
  caption,
  table,
  winners,
  userId,
}: {
  caption: string;
  table: readonly NamedStanding[];
  winners: readonly number[];
  userId: number | undefined;
}) {
  return (
    <table className={styles.table}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Player</th>
          <th scope="col" className={styles.num}>
            <abbr title="Exact results">Exact</abbr>
          </th>
          <th scope="col" className={styles.num}>
            <abbr title="Right goal difference">Diff</abbr>
          </th>
          <th scope="col" className={styles.num}>
            <abbr title="Right tendency">Tend</abbr>
          </th>
          <th scope="col" className={styles.num}>
            <abbr title="Points">Pts</abbr>
          </th>
        </tr>
      </thead>
      <tbody>
        {table.map((standing, index) => (
          <tr
            key={standing.userId}
            className={standing.userId === userId ? styles.mine : undefined}
          >
            <td>{index + 1}</td>
            <th scope="row">
              <span className={styles.player}>{standing.name}</span>
              {standing.userId === userId && <span className={styles.you}>You</span>}
              {winners.includes(standing.userId) && (
                <span className={styles.winner}>
                  <Award size={12} aria-hidden="true" /> Matchday winner
                </span>
              )}
            </th>
            <td className={styles.num}>{standing.exact}</td>
            <td className={styles.num}>{standing.difference}</td>
            <td className={styles.num}>{standing.tendency}</td>
            <td className={`${styles.num} ${styles.points}`}>{standing.points}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
