import { Check, Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import styles from './share-group-modal.module.css';

// The share modal of spec 02 §2: "Scan the QR code to join the group", the QR code of the
// share link (size 250, error correction M), the link, and a copy button whose "Copied!"
// lasts 2 s (spec 02 §9).

const TEXT = {
  scan: 'Scan the QR code to join the group',
  link: 'Invite link',
  copy: 'Copy link',
  copied: 'Copied!',
  copyFailed: 'Select the link and copy it',
};
const COPY_CONFIRMATION_MS = 2000;

export function ShareGroupModal({ link }: { link: string }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onCopy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch (error) {
      // No clipboard permission (an insecure origin, an old browser): select it for the person.
      console.warn('Copying the link failed', error);
      linkRef.current?.select();
      setCopy('failed');
    }
    timer.current = setTimeout(() => setCopy('idle'), COPY_CONFIRMATION_MS);
  };

  return (
    <div className={styles.share}>
      <p className={styles.lead}>{TEXT.scan}</p>
      {/* A QR code needs dark on light to scan, whatever the theme. */}
      <div className={styles.qr}>
        <QRCodeSVG value={link} size={250} level="M" marginSize={0} title={`QR code for ${link}`} />
      </div>
      <label className={styles.linkLabel}>
        <span>{TEXT.link}</span>
        <input
          ref={linkRef}
          className={styles.link}
          value={link}
          readOnly
          onFocus={(event) => event.target.select()}
        />
      </label>
      <Button
        fullWidth
        onClick={onCopy}
        icon={
          copy === 'copied' ? (
            <Check size={18} aria-hidden="true" />
          ) : (
            <Copy size={18} aria-hidden="true" />
          )
        }
      >
        {copy === 'copied' ? TEXT.copied : TEXT.copy}
      </Button>
      <p className="visually-hidden" role="status">
        {copy === 'copied' ? TEXT.copied : copy === 'failed' ? TEXT.copyFailed : ''}
      </p>
    </div>
  );
}
