import { lazy, Suspense } from 'react';
import { openModal } from '../shell/modal-store';
import { Spinner } from '../ui/spinner';
import type { BetFormValues } from './bet-form-model';

// Opening the bet modals from anywhere (the footer's Bet button, empty states). The form
// loads on first use, so the shell's chunk stays free of it and of Dexie.

const CreateBetForm = lazy(() =>
  import('./create-bet-form').then((m) => ({ default: m.CreateBetForm })),
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

/**
 * docs/groups-and-bets.md §2: the bet-creation modal, its group defaulting to `groupId` (the
 * active group); with `initial`, filled in ("Same as last time").
 */
export function openCreateBetModal(groupId: number | null, initial?: BetFormValues) {
  openModal({
    title: 'Create a Bet',
    render: (close) => (
      <Suspense fallback={<Loading />}>
        <CreateBetForm groupId={groupId} onDone={close} initial={initial} />
      </Suspense>
    ),
  });
}
