import type { ReactNode } from 'react';
import type { BetViewer } from '../../domain/policies/bet-policy';
import type { SeasonPodium } from '../../domain/seasons';
import { SHARE_CARD_TEXT, type ResolvedBetCard } from '../../domain/share-cards';
import { shareBet } from '../data/bet-share-api';
import { openModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { drawPodiumCard, drawResolvedBetCard } from './share-card-canvas';
import { BetShareSheet, sharedBetUrl } from './share-link-controls';
import { ShareSheet } from './share-sheet';

// Sharing a card (a resolved bet, a season's podium), loaded only when the player taps Share
// (the dashboard's bundle has no room for it). The card is drawn and our sheet shows it, with
// Download and the link; where the browser can share files (a phone), its Send hands the card to
// the system's share sheet, on a tap of its own (the browser's permission to share lasts only a
// moment after a tap). A bet's link is its public link (/s/<token>), which its sheet can turn
// off. Closing the system sheet is the player changing their mind, not an error.

const TEXT = {
  sendFailed: "Sending didn't work. Download the image or copy the link instead.",
};

interface ShareableCard {
  image: Blob;
  fileName: string;
  /** The system sheet's title. */
  title: string;
  sheetTitle: string;
  /** What the card says, for the system sheet's text and the image's alt text. */
  summary: string;
  link: string;
  linkLabel: string;
}

/** The system sheet's Send, where the browser can share the card's file; undefined elsewhere. */
function systemSend(card: ShareableCard, link: () => string | null): (() => void) | undefined {
  const file = new File([card.image], card.fileName, { type: 'image/png' });
  if (typeof navigator.canShare !== 'function' || !navigator.canShare({ files: [file] }))
    return undefined;
  return () => {
    const url = link();
    navigator
      .share({
        files: [file],
        title: card.title,
        text: `${card.summary} (${SHARE_CARD_TEXT.disclaimer.toLowerCase()})`,
        ...(url ? { url } : {}),
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        console.warn('Sharing through the system failed', error);
        toast.error(TEXT.sendFailed);
      });
  };
}

function openSheet(card: ShareableCard, render: (sheet: SheetProps) => ReactNode): void {
  const source = URL.createObjectURL(card.image);
  openModal({
    title: card.sheetTitle,
    render: () =>
      render({
        image: card.image,
        source,
        fileName: card.fileName,
        alt: `Share card: ${card.summary}. ${SHARE_CARD_TEXT.disclaimer}.`,
        linkLabel: card.linkLabel,
      }),
    onClose: () => URL.revokeObjectURL(source),
  });
}

type SheetProps = {
  image: Blob;
  source: string;
  fileName: string;
  alt: string;
  linkLabel: string;
};

/** A resolved bet's card and its public link (made, or the bet's live one), with Stop sharing. */
export async function shareResolvedBet(
  card: ResolvedBetCard,
  bet: { betId: number; viewer: Pick<BetViewer, 'userId' | 'role'> },
): Promise<void> {
  const [image, share] = await Promise.all([drawResolvedBetCard(card), shareBet(bet.betId)]);
  const shareable: ShareableCard = {
    image,
    fileName: 'hunch-bet.png',
    title: card.betTitle,
    sheetTitle: 'Share this bet',
    summary: `${card.headline}. ${card.betTitle}, in ${card.groupName}`,
    link: share.link ? sharedBetUrl(share.link.token) : '',
    linkLabel: 'Link to this bet',
  };
  openSheet(shareable, (sheet) => (
    <BetShareSheet
      sheet={{ ...sheet, send: systemSend(shareable, () => shareable.link || null) }}
      share={share}
      viewer={bet.viewer}
    />
  ));
}

export async function shareSeasonPodium(podium: SeasonPodium, link: string): Promise<void> {
  const places = podium.places.map((place) => `${place.rank}. ${place.name}`).join(', ');
  const shareable: ShareableCard = {
    image: await drawPodiumCard(podium),
    fileName: 'hunch-season.png',
    title: `${podium.seasonName} podium`,
    sheetTitle: 'Share this podium',
    summary: `${podium.seasonName} podium in ${podium.groupName}: ${places}`,
    link,
    linkLabel: "Link to the group's seasons",
  };
  openSheet(shareable, (sheet) => (
    <ShareSheet {...sheet} link={link} send={systemSend(shareable, () => link)} />
  ));
}
