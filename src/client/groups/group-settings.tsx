import { floorTopUpHint } from '../../domain/floor-top-up';
import { GROUP_LIMITS } from '../../domain/groups';
import { stakeTiersOf } from '../../domain/stakes';
import { refusalText } from '../data/api-client';
import type { GroupRow } from '../data/db';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Toggle } from '../ui/toggle';
import { rotateInviteCode, setFloorTopUp, updateGroup } from './group-actions';
import { GroupDetailsForm } from './group-details-form';
import { GroupWebhooks } from './group-webhooks';
import { StakeTiersField } from './stake-tiers-field';
import styles from './group-details.module.css';

// The group's settings, for its admins (the group policy's canManageGroup): its name and
// description (group-details-form.tsx), its stakes (stake-tiers-field.tsx), the weekly top-up ("nobody is out of the game"), and a
// private group's invite code with a way to change it (a code that leaked, a member removed who
// knows it). The top-up is the group row's flag in the mirror (readable offline); a change goes
// through the outbox, shown at once. A new invite code is the server's, so it needs the network.

const TEXT = {
  heading: 'Settings',
  stakesSaved: 'Stakes saved. New bets use them.',
  topUps: 'Top-ups',
  /** Names the floor, which follows the group's starting points. */
  topUpsHint: floorTopUpHint,
  inviteCode: 'Invite code',
  inviteCodeHint: 'Anyone with the code or an invite link can join this private group.',
  newCode: 'New invite code',
  confirmTitle: 'Change the invite code?',
  confirmBody:
    'The old code and every invite link with it stop working at once. Share the new link with whoever you still want to invite.',
  keep: 'Keep code',
  changing: 'Changing...',
  changed: 'New invite code ready. Share the new link.',
  failed: 'Could not change the invite code. Please try again.',
};

export function GroupSettings({ group }: { group: GroupRow }) {
  return (
    <section className={styles.section} aria-labelledby="group-settings">
      <h2 id="group-settings" className={styles.sectionTitle}>
        {TEXT.heading}
      </h2>
      <Card>
        <GroupDetailsForm group={group} />
        <div className={styles.stakes}>
          <StakeTiersField
            value={stakeTiersOf(group)}
            onChange={(stakeTiers) =>
              void updateGroup(group.id, { stakeTiers }).then(
                () => toast.success(TEXT.stakesSaved),
                (error: unknown) => toast.error(refusalText(error)),
              )
            }
          />
        </div>
        <Toggle
          label={TEXT.topUps}
          description={TEXT.topUpsHint(
            group.defaultPoints ?? GROUP_LIMITS.defaultPoints,
            stakeTiersOf(group),
          )}
          checked={group.floorTopUp ?? true}
          disabled={group.id < 0}
          onChange={(on) => void setFloorTopUp(group.id, on)}
        />
        {group.privacy === 'private' && group.inviteCode && (
          <div className={styles.setting}>
            <div className={styles.settingText}>
              <span className={styles.settingLabel}>{TEXT.inviteCode}</span>
              <code className={styles.inviteCode}>{group.inviteCode}</code>
              <span className={styles.muted}>{TEXT.inviteCodeHint}</span>
            </div>
            <Button
              variant="secondary"
              size="small"
              disabled={group.id < 0}
              onClick={() => openNewCodeConfirm(group.id)}
            >
              {TEXT.newCode}
            </Button>
          </div>
        )}
        <GroupWebhooks groupId={group.id} />
      </Card>
    </section>
  );
}

function openNewCodeConfirm(groupId: number) {
  openModal({
    title: TEXT.confirmTitle,
    size: 'narrow',
    render: (close) => (
      <ConfirmDialog
        body={TEXT.confirmBody}
        keepLabel={TEXT.keep}
        confirmLabel={TEXT.newCode}
        busyLabel={TEXT.changing}
        failedMessage={TEXT.failed}
        onConfirm={async () => {
          // Offline it goes out later: the outbox's toast says so.
          if ((await rotateInviteCode(groupId)) !== undefined) toast.success(TEXT.changed);
        }}
        onDone={close}
      />
    ),
  });
}
