import styles from './leaderboard-page.module.css';

// This week / This month / All time: three toggle buttons, the chosen one
// pressed, so a screen reader hears which view is on.

export type LeaderboardView = 'week' | 'month' | 'all';

const VIEWS: Array<{ view: LeaderboardView; label: string }> = [
  { view: 'week', label: 'This week' },
  { view: 'month', label: 'This month' },
  { view: 'all', label: 'All time' },
];

export function PeriodTabs({
  view,
  onChange,
}: {
  view: LeaderboardView;
  onChange: (view: LeaderboardView) => void;
}) {
  return (
    <div className={styles.tabs} role="group" aria-label="Leaderboard period">
      {VIEWS.map((item) => (
        <button
          key={item.view}
          type="button"
          className={styles.tab}
          aria-pressed={view === item.view}
          onClick={() => onChange(item.view)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
