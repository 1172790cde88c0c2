import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from './button';
import styles from './copy-link.module.css';

// A link to hand to someone (or to another device): the link, read-only and selected on
// focus, and a copy button whose "Copied!" lasts 2 s (docs/groups-and-bets.md §9). Without clipboard access
// (an insecure origin, an old browser) the link is selected for the person to copy.

const TEXT = {
  copy: 'Copy link',
  copied: 'Copied!',
  copyFailed: 'Select the link and copy it',
};
const COPY_CONFIRMATION_MS = 2000;

export function CopyLink({
  link,
  label,
  copyLabel = TEXT.copy,
}: {
  link: string;
  label: string;
  /** The button's text ("Copy link" unless told: a token's or a webhook secret's "Copy"). */
  copyLabel?: string;
}) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => () => clearTimeout(timer.current), []);

  const settle = (outcome: 'copied' | 'failed') => {
    setCopy(outcome);
    timer.current = setTimeout(() => setCopy('idle'), COPY_CONFIRMATION_MS);
  };
  // A plain handler whose chain ends in its failure handler, not asyncHandler(async …): React's
  // lint refuses passing a function that reads a ref to another function during render.
  const onCopy = () => {
    clearTimeout(timer.current);
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(link))
      .then(
        () => settle('copied'),
        (error: unknown) => {
          console.warn('Copying the link failed', error);
          linkRef.current?.select();
          settle('failed');
        },
      );
  };

  return (
    <>
      <label className={styles.linkLabel}>
        <span>{label}</span>
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
        {copy === 'copied' ? TEXT.copied : copyLabel}
      </Button>
      <p className="visually-hidden" role="status">
        {copy === 'copied' ? TEXT.copied : copy === 'failed' ? TEXT.copyFailed : ''}
      </p>
    </>
  );
}
