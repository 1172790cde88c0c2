import type { SeasonPodium } from '../../domain/seasons';
import { SHARE_CARD_TEXT, type ResolvedBetCard } from '../../domain/share-cards';
import { openModal } from '../shell/modal-store';
import { drawPodiumCard, drawResolvedBetCard } from './share-card-canvas';
import { ShareSheet } from './share-sheet';

// Sharing a card (a resolved bet, a season's podium), loaded only when the player taps Share
// (the dashboard's bundle has no room for it). The card is drawn, then handed to the system
// share sheet when the browser can share files; otherwise our own sheet shows it with Download
// and the link. Closing the system sheet is the player changing their mind, not an error.

interface ShareableCard {
  image: Blob;
  fileName: string;
  /** The system sheet's title, and our sheet's. */
  title: string;
  sheetTitle: string;
  /** What the card says, for the system sheet's text and the image's alt text. */
  summary: string;
  link: string;
  linkLabel: string;
}

async function shareCard(card: ShareableCard): Promise<void> {
  const file = new File([card.image], card.fileName, { type: 'image/png' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({
        files: [file],
        title: card.title,
        text: `${card.summary} (${SHARE_CARD_TEXT.disclaimer.toLowerCase()})`,
        url: card.link,
      });
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      // Refused for another reason (no user gesture left, a policy): our sheet still works.
      console.warn('Sharing through the system failed', error);
    }
  }
  const source = URL.createObjectURL(card.image);
  openModal({
    title: card.sheetTitle,
    render: () => (
      <ShareSheet
        image={card.image}
        source={source}
        fileName={card.fileName}
        alt={`Share card: ${card.summary}. ${SHARE_CARD_TEXT.disclaimer}.`}
        link={card.link}
        linkLabel={card.linkLabel}
      />
    ),
    onClose: () => URL.revokeObjectURL(source),
  });
}

export async function shareResolvedBet(card: ResolvedBetCard, link: string): Promise<void> {
  await shareCard({
    image: await drawResolvedBetCard(card),
    fileName: 'hunch-bet.png',
    title: card.betTitle,
    sheetTitle: 'Share this bet',
    summary: `${card.headline}. ${card.betTitle}, in ${card.groupName}`,
    link,
    linkLabel: 'Link to this bet',
  });
}

export async function shareSeasonPodium(podium: SeasonPodium, link: string): Promise<void> {
  const places = podium.places.map((place) => `${place.rank}. ${place.name}`).join(', ');
  await shareCard({
    image: await drawPodiumCard(podium),
    fileName: 'hunch-season.png',
    title: `${podium.seasonName} podium`,
    sheetTitle: 'Share this podium',
    summary: `${podium.seasonName} podium in ${podium.groupName}: ${places}`,
    link,
    linkLabel: "Link to the group's seasons",
  });
}
