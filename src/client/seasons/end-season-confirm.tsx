import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import type { SeasonRow } from '../data/db';
import { endSeason } from './season-actions';

const TEXT = {
  title: 'End season now?',
  body: 'The standings are final and go to the archive.',
  reset: " Everyone's available points go back to the starting points.",
  keep: 'Keep playing',
  confirm: 'End season',
  busy: 'Ending...',
};

/** "End season now": the admin confirms, the podium is archived (and points reset if chosen). */
export function openEndSeasonConfirm(season: Pick<SeasonRow, 'id' | 'groupId' | 'resetPoints'>) {
  openModal({
    title: TEXT.title,
    render: (close) => (
      <ConfirmDialog
        body={TEXT.body + (season.resetPoints ? TEXT.reset : '')}
        keepLabel={TEXT.keep}
        confirmLabel={TEXT.confirm}
        busyLabel={TEXT.busy}
        onConfirm={() => endSeason(season.groupId, season.id)}
        onDone={close}
      />
    ),
  });
}
