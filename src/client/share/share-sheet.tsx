import { Download, Share2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { CopyLink } from '../ui/copy-link';
import { saveFile } from '../ui/save-file';
import styles from './share-sheet.module.css';

// The share sheet: the card itself; "Send" to the system's share sheet where the browser can
// share files (a phone), Download for the PNG, and the link to copy; below, what the sharer may
// do with the link (a bet's "Stop sharing", share-link-controls.tsx).

const TEXT = {
  send: 'Send',
  download: 'Download image',
};

/** `source` is an object URL of `image`, which whoever opened the sheet revokes once it closes. */
export function ShareSheet({
  image,
  source,
  fileName,
  alt,
  link,
  linkLabel,
  send,
  linkControls,
}: {
  image: Blob;
  source: string;
  fileName: string;
  alt: string;
  /** Null once the link was turned off: the sheet keeps the image, with no link to copy. */
  link: string | null;
  /** "Link to this bet", "Link to the seasons". */
  linkLabel: string;
  /** Hands the card to the system's share sheet; absent where the browser cannot share files. */
  send?: () => void;
  linkControls?: ReactNode;
}) {
  return (
    <div className={styles.sheet}>
      <img className={styles.preview} src={source} alt={alt} width={1200} height={630} />
      {send && (
        <Button fullWidth icon={<Share2 size={18} aria-hidden="true" />} onClick={send}>
          {TEXT.send}
        </Button>
      )}
      <Button
        variant="secondary"
        fullWidth
        icon={<Download size={18} aria-hidden="true" />}
        onClick={() => saveFile(fileName, image)}
      >
        {TEXT.download}
      </Button>
      {link && <CopyLink link={link} label={linkLabel} />}
      {linkControls}
    </div>
  );
}
