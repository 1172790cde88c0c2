import type { GroupRow } from '../data/db';
import { Card } from '../ui/card';
import { Toggle } from '../ui/toggle';
import { setFloorTopUp } from './group-actions';
import styles from './group-details.module.css';

// The group's settings, for its admins: the weekly top-up ("nobody is out of the game"). The
// value is the group row's flag in the mirror (readable offline); a change goes through the
// outbox, shown at once.

const TEXT = {
  heading: 'Settings',
  topUps: 'Top-ups',
  topUpsHint:
    'Members whose points fall below the base wager get topped up to the floor once a week.',
};

export function GroupSettings({ group }: { group: GroupRow }) {
  return (
    <section className={styles.section} aria-labelledby="group-settings">
      <h2 id="group-settings" className={styles.sectionTitle}>
        {TEXT.heading}
      </h2>
      <Card>
        <Toggle
          label={TEXT.topUps}
          description={TEXT.topUpsHint}
          checked={group.floorTopUp ?? true}
          disabled={group.id < 0}
          onChange={(on) => void setFloorTopUp(group.id, on)}
        />
      </Card>
    </section>
  );
}
