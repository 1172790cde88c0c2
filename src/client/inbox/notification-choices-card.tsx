import { BellRing } from 'lucide-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { PUSH_KINDS, type PushKind } from '../../domain/notifications';
import { db } from '../data/db';
import { useNotificationSettings } from '../data/use-notifications';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Toggle } from '../ui/toggle';
import { inboxActions } from './inbox-actions';
import styles from './notification-choices-card.module.css';

// Profile, next to the push toggle: which kinds reach push (every kind always
// lands in the inbox), and what is muted, with a way back. Read from the mirror, written
// through the outbox, so it works offline too.

const TEXT = {
  title: 'What reaches push',
  intro: 'Everything always lands in your inbox. Choose what also pops up on your devices.',
  muted: 'Muted',
  mutedIntro: "You won't hear about these, except your own results.",
  unmute: 'Unmute',
  unknownGroup: 'A group',
  unknownBet: 'A bet',
};

const KIND_TEXT: Record<PushKind, { label: string; description: string }> = {
  betCreated: { label: 'New bets', description: 'A friend asks something in your group.' },
  closesSoon: {
    label: 'Reminders',
    description: "Betting closes soon and you haven't picked; your bet waits for its answer.",
  },
  betResult: {
    label: 'Results',
    description: 'How a bet or a season ended and what you won or lost.',
  },
  memberJoined: { label: 'Friends joining', description: 'Someone joins one of your groups.' },
  oddsChanged: {
    label: 'Odds moving',
    description: 'A new wager changes what your pick pays, at most every 10 minutes a bet.',
  },
};

export function NotificationChoicesCard() {
  const settings = useNotificationSettings();
  const setKind = (kind: PushKind, isOn: boolean) => {
    const pushOff = isOn
      ? settings.pushOff.filter((other) => other !== kind)
      : [...settings.pushOff.filter((other) => other !== kind), kind];
    void inboxActions.setPushKinds(pushOff);
  };
  return (
    <Card aria-labelledby="notification-choices">
      <h2 id="notification-choices" className={styles.title}>
        <BellRing size={20} aria-hidden="true" className={styles.icon} />
        {TEXT.title}
      </h2>
      <p className={styles.intro}>{TEXT.intro}</p>
      <div className={styles.toggles}>
        {PUSH_KINDS.map((kind) => (
          <Toggle
            key={kind}
            label={KIND_TEXT[kind].label}
            description={KIND_TEXT[kind].description}
            checked={!settings.pushOff.includes(kind)}
            onChange={(next) => setKind(kind, next)}
          />
        ))}
      </div>
      <MutedList groupIds={settings.mutedGroupIds} betIds={settings.mutedBetIds} />
    </Card>
  );
}

function MutedList({ groupIds, betIds }: { groupIds: number[]; betIds: number[] }) {
  const names = useLiveQuery(async () => {
    const [groups, bets] = await Promise.all([
      db.groups.bulkGet(groupIds),
      db.bets.bulkGet(betIds),
    ]);
    return {
      groups: groups.map((group) => group?.name ?? TEXT.unknownGroup),
      bets: bets.map((bet) => bet?.title ?? TEXT.unknownBet),
    };
  }, [groupIds.join(','), betIds.join(',')]);
  if (groupIds.length + betIds.length === 0 || !names) return null;
  const rows = [
    ...groupIds.map((id, index) => ({
      key: `group-${id}`,
      name: names.groups[index]!,
      unmute: () => void inboxActions.muteGroup(id, false),
    })),
    ...betIds.map((id, index) => ({
      key: `bet-${id}`,
      name: names.bets[index]!,
      unmute: () => void inboxActions.muteBet(id, false),
    })),
  ];
  return (
    <section aria-labelledby="muted-heading" className={styles.muted}>
      <h3 id="muted-heading" className={styles.mutedTitle}>
        {TEXT.muted}
      </h3>
      <p className={styles.intro}>{TEXT.mutedIntro}</p>
      <ul className={styles.mutedList}>
        {rows.map((row) => (
          <li key={row.key} className={styles.mutedRow}>
            <span className={styles.mutedName}>{row.name}</span>
            <Button
              variant="secondary"
              size="small"
              onClick={row.unmute}
              aria-label={`${TEXT.unmute} ${row.name}`}
            >
              {TEXT.unmute}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
