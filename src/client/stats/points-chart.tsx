import type { PointsStep } from '../../domain/member-stats';
import styles from './member-stats-page.module.css';

// The points-over-time line, drawn by hand in SVG: no chart library in the
// bundle. A step line (points change at a moment and stay), the first and last totals labelled.

const WIDTH = 320;
const HEIGHT = 120;
const PAD = 6;

export function PointsChart({ steps }: { steps: readonly PointsStep[] }) {
  if (steps.length === 0) return <p className={styles.muted}>No points yet.</p>;
  const totals = steps.map((step) => step.total);
  const low = Math.min(...totals);
  const high = Math.max(...totals);
  const span = high - low || 1;
  const x = (index: number) =>
    steps.length === 1 ? WIDTH / 2 : PAD + (index * (WIDTH - 2 * PAD)) / (steps.length - 1);
  const y = (total: number) => PAD + ((high - total) * (HEIGHT - 2 * PAD)) / span;
  const path = steps
    .map((step, index) =>
      index === 0 ? `M${x(0)},${y(step.total)}` : `H${x(index)}V${y(step.total)}`,
    )
    .join('');
  const first = steps[0]!;
  const last = steps.at(-1)!;
  const changes = `${steps.length} ${steps.length === 1 ? 'change' : 'changes'}`;
  const label = `From ${first.total} to ${last.total} points over ${changes}; lowest ${low}, highest ${high}.`;
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
        <line
          x1={0}
          x2={WIDTH}
          y1={y(first.total)}
          y2={y(first.total)}
          className={styles.baseline}
        />
        <path d={path} className={styles.line} vectorEffect="non-scaling-stroke" />
        <circle cx={x(steps.length - 1)} cy={y(last.total)} r={3.5} className={styles.dot} />
      </svg>
      <figcaption className={styles.chartScale}>
        <span>{formatDay(first.at)}</span>
        <span>
          {low} – {high} pts
        </span>
        <span>{formatDay(last.at)}</span>
      </figcaption>
    </figure>
  );
}

function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
}
