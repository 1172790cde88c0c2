import { Share } from 'lucide-react';
import { parseInviteLink } from '../../domain/groups';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { CopyLink } from '../ui/copy-link';
import { QrCode } from '../ui/qr-code';
import styles from './share-group-modal.module.css';

// The share modal of docs/groups-and-bets.md §2: "Scan the QR code to join the group", the QR code of the
// share link (size 250, error correction M), the link, and a copy button whose "Copied!"
// lasts 2 s (docs/groups-and-bets.md §9). Beside them: a private group's id and invite code as text (what the
// join form's "Private Group" tab asks for, to read out or type on another phone), and the
// phone's own share sheet where the browser has one.

const TEXT = {
  scan: 'Scan the QR code to join the group',
  link: 'Invite link',
  groupId: 'Group ID',
  inviteCode: 'Invite code',
  share: 'Share…',
  shareText: (groupName: string) => `Join ${groupName} on Hunch`,
};

/** Whether this browser offers the system share sheet (most phones; few desktops). */
function canUseShareSheet(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function';
}

export function ShareGroupModal({ link, groupName }: { link: string; groupName: string }) {
  const invite = parseInviteLink(link);
  const onShare = async () => {
    try {
      await navigator.share({ title: TEXT.shareText(groupName), url: link });
    } catch (error) {
      // Closing the sheet without choosing rejects with AbortError: nothing went wrong.
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        console.warn('The share sheet failed', error);
    }
  };

  return (
    <div className={styles.share}>
      <p className={styles.lead}>{TEXT.scan}</p>
      <QrCode value={link} title={`QR code for ${link}`} />
      {invite?.inviteCode && (
        <dl className={styles.codes}>
          <div className={styles.code}>
            <dt>{TEXT.groupId}</dt>
            <dd>{invite.groupId}</dd>
          </div>
          <div className={styles.code}>
            <dt>{TEXT.inviteCode}</dt>
            <dd>{invite.inviteCode}</dd>
          </div>
        </dl>
      )}
      <CopyLink link={link} label={TEXT.link} />
      {canUseShareSheet() && (
        <Button
          variant="secondary"
          fullWidth
          onClick={asyncHandler(onShare)}
          icon={<Share size={18} aria-hidden="true" />}
        >
          {TEXT.share}
        </Button>
      )}
    </div>
  );
}
