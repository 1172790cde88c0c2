import { CopyLink } from '../ui/copy-link';
import { QrCode } from '../ui/qr-code';
import styles from './share-group-modal.module.css';

// The share modal of spec 02 §2: "Scan the QR code to join the group", the QR code of the
// share link (size 250, error correction M), the link, and a copy button whose "Copied!"
// lasts 2 s (spec 02 §9).

const TEXT = {
  scan: 'Scan the QR code to join the group',
  link: 'Invite link',
};

export function ShareGroupModal({ link }: { link: string }) {
  return (
    <div className={styles.share}>
      <p className={styles.lead}>{TEXT.scan}</p>
      <QrCode value={link} title={`QR code for ${link}`} />
      <CopyLink link={link} label={TEXT.link} />
    </div>
  );
}
