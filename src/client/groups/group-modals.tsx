import { lazy, Suspense, type ReactNode } from 'react';
import { shareLink } from '../../domain/groups';
import { openModal } from '../shell/modal-store';
import { Spinner } from '../ui/spinner';
import type { JoinPrefill } from './join-group-form';

// Opening the group modals from anywhere (the header, the group pages). Their bodies load
// on first use: forms, zod and the QR code library stay out of the header's chunk.

const GroupSelector = lazy(() =>
  import('./group-selector').then((m) => ({ default: m.GroupSelector })),
);
const JoinGroupForm = lazy(() =>
  import('./join-group-form').then((m) => ({ default: m.JoinGroupForm })),
);
const ShareGroupModal = lazy(() =>
  import('./share-group-modal').then((m) => ({ default: m.ShareGroupModal })),
);
const LeaveGroupConfirm = lazy(() =>
  import('./leave-group-confirm').then((m) => ({ default: m.LeaveGroupConfirm })),
);

function Loading() {
  return (
    <div
      style={{ display: 'grid', placeItems: 'center', minHeight: 240, color: 'var(--color-brand)' }}
    >
      <Spinner size="large" label="Loading" />
    </div>
  );
}

const lazyBody = (body: ReactNode) => <Suspense fallback={<Loading />}>{body}</Suspense>;

/** The group selector (the header's group button). */
export function openGroupSelectorModal() {
  openModal({
    title: 'Your groups',
    render: (close) => lazyBody(<GroupSelector onDone={close} />),
  });
}

/** The join modal; a prefilled id or code opens its Private Group tab (docs/groups-and-bets.md §4). */
export function openJoinGroupModal(prefill?: JoinPrefill) {
  openModal({
    title: 'Join a Group',
    render: (close) => lazyBody(<JoinGroupForm prefill={prefill} onJoined={close} />),
  });
}

/** docs/groups-and-bets.md §2 "Share {group name}", with the share link for this origin. */
export function openShareGroupModal(group: Parameters<typeof shareLink>[1] & { name: string }) {
  const link = shareLink(window.location.origin, group);
  openModal({
    title: `Share ${group.name}`,
    render: () => lazyBody(<ShareGroupModal link={link} groupName={group.name} />),
  });
}

/** Asks before leaving; `onLeft` runs after the server has agreed. */
export function openLeaveGroupModal(group: { id: number; name: string }, onLeft: () => void) {
  openModal({
    title: `Leave ${group.name}?`,
    size: 'narrow',
    render: (close) => lazyBody(<LeaveGroupConfirm group={group} onLeft={onLeft} onDone={close} />),
  });
}
