import {
  AlarmClock,
  Bell,
  CheckCheck,
  Coins,
  Flag,
  Gavel,
  type LucideIcon,
  Medal,
  MessageCircle,
  Scale,
  Sparkles,
  TrendingUp,
  Trophy,
  Undo2,
  UserMinus,
  UserPlus,
  Webhook,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatCommentAge } from '../../domain/comments';
import { notificationLink, notificationText } from '../../domain/notification-texts';
import type { NotificationKind } from '../../domain/notifications';
import type { NotificationRow } from '../data/db';
import { useInbox } from '../data/use-notifications';
import { AppPage } from '../shell/app-page';
import { Button, buttonClassName } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { useNow } from '../ui/use-now';
import { inboxActions } from './inbox-actions';
import styles from './inbox-page.module.css';

// The inbox: every notification Hunch sends, also when push is off, blocked or
// unsupported, newest activity first, from the mirror (readable offline); each names its group as
// it is called now, and none does while the player is in one group only. Opening an entry reads
// it and goes to its bet or group; "Mark all as read" reads what is shown.

const TEXT = {
  title: 'Inbox',
  markAll: 'Mark all as read',
  loading: 'Loading your inbox',
  emptyTitle: "You're all caught up",
  emptyText: 'New bets, reminders before betting closes and your results land here.',
  emptyAction: 'Go to your bets',
  unread: 'Unread',
  earlier: 'Earlier',
  unreadMark: 'unread',
};

const ICONS: Record<NotificationKind, LucideIcon> = {
  betCreated: Sparkles,
  closesSoon: AlarmClock,
  resolveReminder: Gavel,
  betResult: Trophy,
  memberJoined: UserPlus,
  comments: MessageCircle,
  resultUndone: Undo2,
  disputeOpened: Flag,
  disputeClosed: Scale,
  floorTopUp: Coins,
  oddsChanged: TrendingUp,
  seasonEnded: Medal,
  removedFromGroup: UserMinus,
  webhookPaused: Webhook,
};

export function InboxPage() {
  const inbox = useInbox();
  const entries = inbox?.entries;
  const namesGroups = inbox?.namesGroups ?? false;
  const unread = entries?.filter((entry) => entry.readAt === null) ?? [];
  const earlier = entries?.filter((entry) => entry.readAt !== null) ?? [];
  const markAll = () => {
    const newest = entries?.[0]?.updatedAt;
    if (newest) void inboxActions.markAllRead(newest);
  };
  return (
    <AppPage
      title={TEXT.title}
      actions={
        unread.length > 0 && (
          <Button
            variant="ghost"
            size="small"
            icon={<CheckCheck size={18} aria-hidden="true" />}
            onClick={markAll}
          >
            {TEXT.markAll}
          </Button>
        )
      }
    >
      {entries === undefined ? (
        <div className={styles.skeleton} role="status" aria-label={TEXT.loading} />
      ) : entries.length === 0 ? (
        <EmptyState
          icon={<Bell size={32} />}
          title={TEXT.emptyTitle}
          action={
            <Link to="/dashboard" className={buttonClassName({ variant: 'secondary' })}>
              {TEXT.emptyAction}
            </Link>
          }
        >
          {TEXT.emptyText}
        </EmptyState>
      ) : (
        <>
          {unread.length > 0 && (
            <EntryList heading={TEXT.unread} entries={unread} namesGroups={namesGroups} />
          )}
          {earlier.length > 0 && (
            <EntryList heading={TEXT.earlier} entries={earlier} namesGroups={namesGroups} />
          )}
        </>
      )}
    </AppPage>
  );
}

function EntryList({
  heading,
  entries,
  namesGroups,
}: {
  heading: string;
  entries: NotificationRow[];
  namesGroups: boolean;
}) {
  const now = useNow(30_000);
  const id = `inbox-${heading.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className={styles.section}>
      <h2 id={id} className={styles.heading}>
        {heading}
      </h2>
      <ul className={styles.list}>
        {entries.map((entry) => (
          <li key={entry.id}>
            <InboxEntry entry={entry} now={now} namesGroup={namesGroups} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function InboxEntry({
  entry,
  now,
  namesGroup,
}: {
  entry: NotificationRow;
  now: number;
  /** The group's name beside the time, unless the player is in that one group only. */
  namesGroup: boolean;
}) {
  const { title, body } = notificationText(entry);
  const Icon = ICONS[entry.kind];
  const isUnread = entry.readAt === null;
  return (
    <Link
      to={notificationLink(entry)}
      className={`${styles.entry} ${isUnread ? styles.unread : ''}`}
      data-kind={entry.kind}
      onClick={() => {
        if (isUnread) void inboxActions.markRead([entry.id]);
      }}
    >
      <span className={styles.icon} data-kind={entry.kind} aria-hidden="true">
        <Icon size={20} />
      </span>
      <span className={styles.text}>
        <span className={styles.title}>
          {title}
          {isUnread && <span className="visually-hidden">, {TEXT.unreadMark}</span>}
        </span>
        <span className={styles.body}>{body}</span>
        <span className={styles.meta}>
          {namesGroup && `${entry.payload.groupName} · `}
          {formatCommentAge(entry.updatedAt, now)}
        </span>
      </span>
      {isUnread && <span className={styles.dot} aria-hidden="true" />}
    </Link>
  );
}
