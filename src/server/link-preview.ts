// Open Graph and Twitter tags for a bet link, put into index.html's head by client-app.ts so chat
// apps show a preview card. A bet page (/bets/:id) names a public group's bet (title and group);
// a shared bet's public link (/s/:token) names the bet it opens while the link is on, whatever
// its group: a member chose to share it. Anything else gets the same generic preview. Every
// value is escaped.

/** What a preview may say of a bet (found by `bets/bet-preview.service.ts`). */
export interface PublicBetPreview {
  title: string;
  groupName: string;
}

/** The static preview image (public/og-image.png, rendered by scripts/make-og-image.mjs). */
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 };

export const LINK_PREVIEW_TEXT = {
  siteName: 'Hunch',
  genericTitle: 'A bet on Hunch',
  genericDescription:
    'Friends call it, points move, someone gets bragging rights. Virtual points, no money.',
  betDescription: (groupName: string) =>
    `A bet in ${groupName} on Hunch. Make your call: virtual points, no money.`,
  imageAlt: 'Hunch, the prediction game for friends. Virtual points, no money.',
};

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for an HTML attribute value or element body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** The meta tags of a bet page's link; `bet` null for the generic preview. */
export function betLinkPreviewTags(options: {
  publicUrl: string;
  betId: number;
  bet: PublicBetPreview | null;
}): string {
  return linkPreviewTags(`${options.publicUrl}/bets/${options.betId}`, options);
}

/** The meta tags of a shared bet's public link (/s/:token); `bet` null once off or unknown. */
export function sharedBetPreviewTags(options: {
  publicUrl: string;
  path: string;
  bet: PublicBetPreview | null;
}): string {
  return linkPreviewTags(`${options.publicUrl}${options.path}`, options);
}

function linkPreviewTags(
  url: string,
  { publicUrl, bet }: { publicUrl: string; bet: PublicBetPreview | null },
): string {
  const title = bet ? bet.title : LINK_PREVIEW_TEXT.genericTitle;
  const description = bet
    ? LINK_PREVIEW_TEXT.betDescription(bet.groupName)
    : LINK_PREVIEW_TEXT.genericDescription;
  const tags: Array<[attribute: 'property' | 'name', key: string, value: string]> = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', LINK_PREVIEW_TEXT.siteName],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'og:image', `${publicUrl}${OG_IMAGE.path}`],
    ['property', 'og:image:width', String(OG_IMAGE.width)],
    ['property', 'og:image:height', String(OG_IMAGE.height)],
    ['property', 'og:image:alt', LINK_PREVIEW_TEXT.imageAlt],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ];
  return tags
    .map(
      ([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`,
    )
    .join('\n    ');
}

/** index.html with the tags at the end of its head (or its start, should it have no head). */
export function withHeadTags(html: string, tags: string): string {
  const end = html.search(/<\/head>/i);
  return end === -1 ? `${tags}\n${html}` : `${html.slice(0, end)}    ${tags}\n  ${html.slice(end)}`;
}
