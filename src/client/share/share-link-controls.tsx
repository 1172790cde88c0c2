import { useState } from 'react';
import { sharedBetPath } from '../../domain/bet-shares';
import { mayStopSharing, type BetViewer } from '../../domain/policies/bet-policy';
import type { BetShare } from '../../domain/schemas/bet-shares';
import { stopSharingBet } from '../data/bet-share-api';
import { errorMessage } from '../data/api-client';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { ShareSheet } from './share-sheet';
import styles from './share-sheet.module.css';

// A bet's share sheet: the card and its public link (docs/groups-and-bets.md, "Sharing a bet"),
// what the link shows, and "Stop sharing" for whoever the bet policy lets turn it off (its
// sharer or an admin); once off, the link answers "This link was turned off".

export const SHARE_LINK_TEXT = {
  whatItShows:
    "Anyone with the link sees this bet, read-only: its question, its state and, once it's resolved, who called it.",
  stop: 'Stop sharing',
  stopping: 'Stopping...',
  stopped: 'Sharing stopped. The link was turned off.',
  sharedBy: (name: string) => `Shared by ${name}. They or an admin can turn the link off.`,
  failed: "We couldn't turn the link off. Please try again.",
};

/** The public link's address on this server. */
export const sharedBetUrl = (token: string) => `${window.location.origin}${sharedBetPath(token)}`;

type SheetProps = Omit<Parameters<typeof ShareSheet>[0], 'link' | 'linkControls'>;

export function BetShareSheet({
  sheet,
  share,
  viewer,
}: {
  sheet: SheetProps;
  share: BetShare;
  viewer: Pick<BetViewer, 'userId' | 'role'>;
}) {
  const [link, setLink] = useState(share.link);
  const [isBusy, setIsBusy] = useState(false);
  const canStop = link !== null && mayStopSharing(viewer, link).allowed;

  const stop = () => {
    setIsBusy(true);
    stopSharingBet(share.betId)
      .then((answer) => setLink(answer.link))
      .catch((error: unknown) => {
        console.warn('Stopping the share failed', error);
        toast.error(errorMessage(error, SHARE_LINK_TEXT.failed));
      })
      .finally(() => setIsBusy(false));
  };

  const controls =
    link === null ? (
      <FormAlert tone="success">{SHARE_LINK_TEXT.stopped}</FormAlert>
    ) : (
      <div className={styles.linkControls}>
        <p className={styles.note}>{SHARE_LINK_TEXT.whatItShows}</p>
        {canStop ? (
          <Button
            variant="danger"
            size="small"
            isLoading={isBusy}
            loadingText={SHARE_LINK_TEXT.stopping}
            onClick={stop}
          >
            {SHARE_LINK_TEXT.stop}
          </Button>
        ) : (
          link.sharedByName && (
            <p className={styles.note}>{SHARE_LINK_TEXT.sharedBy(link.sharedByName)}</p>
          )
        )}
      </div>
    );
  return (
    <ShareSheet {...sheet} link={link ? sharedBetUrl(link.token) : null} linkControls={controls} />
  );
}
