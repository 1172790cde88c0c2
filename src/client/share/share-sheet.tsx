import { Download } from 'lucide-react';
import { Button } from '../ui/button';
import { CopyLink } from '../ui/copy-link';
import { saveFile } from '../ui/save-file';
import styles from './share-sheet.module.css';

// Where the browser cannot share files (most desktops, headless Chromium): the card itself,
// a Download button for the PNG, and the link to copy.

const TEXT = {
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
}: {
  image: Blob;
  source: string;
  fileName: string;
  alt: string;
  link: string;
  /** "Link to this bet", "Link to the seasons". */
  linkLabel: string;
}) {
  return (
    <div className={styles.sheet}>
      <img className={styles.preview} src={source} alt={alt} width={1200} height={630} />
      <Button
        variant="secondary"
        fullWidth
        icon={<Download size={18} aria-hidden="true" />}
        onClick={() => saveFile(fileName, image)}
      >
        {TEXT.download}
      </Button>
      <CopyLink link={link} label={linkLabel} />
    </div>
  );
}
