import type { SeasonPodium } from '../../domain/seasons';
import { SHARE_CARD_TEXT, type ResolvedBetCard } from '../../domain/share-cards';
import { signedPoints } from '../ui/points';

// Draws the share cards on a canvas as 1200×630 PNGs (the Open Graph size chat apps show
// whole), in the light theme's tokens (src/client/styles/tokens.css): the violet brand, the
// amber coin, the system font stack. Every card carries the Hunch mark and "Virtual points,
// no money".

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const COLOR = {
  brand: '#6d28d9',
  brandSoft: '#ede9fe',
  onBrand: '#ffffff',
  accent: '#92400e',
  accentMark: '#f59e0b',
  accentSoft: '#fef3c7',
  bg: '#f7f6fb',
  surface: '#ffffff',
  border: '#e2dfeb',
  text: '#1c1830',
  muted: '#5b5670',
  success: '#15803d',
};
const FONT =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";
const MARGIN = 64;
/** The H of public/favicon.svg, on its 64-unit grid. */
const MARK_H = 'M20 16h7v13h10V16h7v32h-7V35H27v13h-7z';

type Context = CanvasRenderingContext2D;

const font = (size: number, weight = 400) => `${weight} ${size}px ${FONT}`;

/** Lines of `text` no wider than `width`, at most `maxLines`, the last one ellipsised if cut. */
function wrapLines(ctx: Context, text: string, width: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (ctx.measureText(candidate).width <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines.map((each) => fitWidth(ctx, each, width));
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = fitWidth(ctx, `${kept[maxLines - 1]!}…`, width);
  return kept;
}

/** `text` cut with an ellipsis until it fits `width` (a single very long word). */
function fitWidth(ctx: Context, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** The largest of `sizes` at which `text` fits `maxLines` lines of `width` whole; the smallest otherwise. */
function fittingSize(
  ctx: Context,
  text: string,
  options: { width: number; weight: number; maxLines: number; sizes: number[] },
): number {
  const sizes = options.sizes;
  for (const size of sizes) {
    ctx.font = font(size, options.weight);
    const lines = wrapLines(ctx, text, options.width, options.maxLines + 1);
    if (lines.length <= options.maxLines && !lines.some((line) => line.endsWith('…'))) return size;
  }
  return sizes[sizes.length - 1]!;
}

/** Draws wrapped text from (x, y) as the first line's top; returns the y under the last line. */
function drawText(
  ctx: Context,
  text: string,
  options: {
    x: number;
    y: number;
    width: number;
    size: number;
    weight?: number;
    color: string;
    maxLines: number;
  },
): number {
  const lineHeight = Math.round(options.size * 1.2);
  ctx.font = font(options.size, options.weight);
  ctx.fillStyle = options.color;
  ctx.textBaseline = 'top';
  const lines = wrapLines(ctx, text, options.width, options.maxLines);
  lines.forEach((line, index) => ctx.fillText(line, options.x, options.y + index * lineHeight));
  return options.y + lines.length * lineHeight;
}

function roundedRect(ctx: Context, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** The mark (violet rounded square, white H, amber coin) and the word Hunch, top left. */
function drawBrand(ctx: Context) {
  const size = 72;
  ctx.save();
  ctx.translate(MARGIN, MARGIN);
  roundedRect(ctx, 0, 0, size, size, 18);
  ctx.fillStyle = COLOR.brand;
  ctx.fill();
  ctx.scale(size / 64, size / 64);
  ctx.fillStyle = COLOR.onBrand;
  ctx.fill(new Path2D(MARK_H));
  ctx.beginPath();
  ctx.arc(47, 17, 7, 0, Math.PI * 2);
  ctx.fillStyle = COLOR.accentMark;
  ctx.fill();
  ctx.restore();
  ctx.font = font(40, 700);
  ctx.fillStyle = COLOR.text;
  ctx.textBaseline = 'middle';
  ctx.fillText('Hunch', MARGIN + size + 20, MARGIN + size / 2 + 2);
}

/** A pill at the top right: what kind of card this is. */
function drawLabel(ctx: Context, text: string) {
  ctx.font = font(26, 600);
  const width = ctx.measureText(text).width + 48;
  const x = CARD_WIDTH - MARGIN - width;
  roundedRect(ctx, x, MARGIN + 12, width, 48, 24);
  ctx.fillStyle = COLOR.surface;
  ctx.fill();
  ctx.lineWidth = 2;
  ctx.strokeStyle = COLOR.brand;
  ctx.stroke();
  ctx.fillStyle = COLOR.brand;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, x + 24, MARGIN + 37);
}

/** The footer band: the group on the left, "Virtual points, no money" with a coin on the right. */
function drawFooter(ctx: Context, groupName: string) {
  const top = CARD_HEIGHT - 96;
  ctx.fillStyle = COLOR.surface;
  ctx.fillRect(0, top, CARD_WIDTH, 96);
  ctx.fillStyle = COLOR.border;
  ctx.fillRect(0, top, CARD_WIDTH, 2);
  ctx.textBaseline = 'middle';
  ctx.font = font(28, 600);
  const disclaimer = SHARE_CARD_TEXT.disclaimer;
  const disclaimerWidth = ctx.measureText(disclaimer).width;
  const right = CARD_WIDTH - MARGIN;
  ctx.fillStyle = COLOR.accent;
  ctx.fillText(disclaimer, right - disclaimerWidth, top + 49);
  ctx.beginPath();
  ctx.arc(right - disclaimerWidth - 26, top + 48, 12, 0, Math.PI * 2);
  ctx.fillStyle = COLOR.accentMark;
  ctx.fill();
  ctx.font = font(28, 500);
  ctx.fillStyle = COLOR.muted;
  ctx.fillText(fitWidth(ctx, groupName, right - disclaimerWidth - 80 - MARGIN), MARGIN, top + 49);
}

function newCanvas(): { canvas: HTMLCanvasElement; ctx: Context } {
  const canvas = document.createElement('canvas');
  canvas.width = CARD_WIDTH;
  canvas.height = CARD_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw the share card.');
  ctx.fillStyle = COLOR.bg;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
  // A soft violet corner, so the card reads as Hunch at thumbnail size.
  ctx.fillStyle = COLOR.brandSoft;
  ctx.beginPath();
  ctx.arc(CARD_WIDTH, 0, 260, 0, Math.PI * 2);
  ctx.fill();
  drawBrand(ctx);
  return { canvas, ctx };
}

function toPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The share card could not be drawn.'))),
      'image/png',
    ),
  );
}

/** "Ben called it — won 6 (×1.5)", the answer, the bet's title and its group, as a PNG. */
export function drawResolvedBetCard(card: ResolvedBetCard): Promise<Blob> {
  const { canvas, ctx } = newCanvas();
  drawLabel(ctx, SHARE_CARD_TEXT.resolvedLabel);
  const width = CARD_WIDTH - 2 * MARGIN;
  // The headline carries the news (who, the answer, the multiple): smaller type before any cut.
  let y = drawText(ctx, card.headline, {
    x: MARGIN,
    y: 196,
    width,
    size: fittingSize(ctx, card.headline, { width, weight: 800, maxLines: 2, sizes: [64, 56, 48] }),
    weight: 800,
    color: COLOR.text,
    maxLines: 2,
  });
  if (card.detail)
    y = drawText(ctx, card.detail, {
      x: MARGIN,
      y: y + 8,
      width,
      size: 30,
      weight: 600,
      color: COLOR.success,
      maxLines: 1,
    });
  // The title under a short brand rule, as the question everyone answered.
  ctx.fillStyle = COLOR.brand;
  ctx.fillRect(MARGIN, y + 28, 64, 6);
  drawText(ctx, card.betTitle, {
    x: MARGIN,
    y: y + 56,
    width,
    size: 36,
    weight: 500,
    color: COLOR.muted,
    maxLines: CARD_HEIGHT - 96 - (y + 56) > 90 ? 2 : 1,
  });
  drawFooter(ctx, card.groupName);
  return toPng(canvas);
}

const PODIUM_STEPS = [
  { place: 2, height: 150, color: COLOR.brandSoft },
  { place: 1, height: 200, color: COLOR.accentSoft },
  { place: 3, height: 110, color: COLOR.brandSoft },
];

function drawStep(
  ctx: Context,
  x: number,
  width: number,
  step: (typeof PODIUM_STEPS)[number],
  who: SeasonPodium['places'][number],
) {
  const bottom = CARD_HEIGHT - 96;
  const top = bottom - step.height;
  roundedRect(ctx, x, top, width, step.height + 16, 16);
  ctx.fillStyle = step.color;
  ctx.fill();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.font = font(48, 800);
  // Ties share a rank: the label is the rank, the step only the order.
  ctx.fillStyle = who.rank === 1 ? COLOR.accent : COLOR.brand;
  ctx.fillText(String(who.rank), x + width / 2, top + 16);
  ctx.font = font(24, 600);
  ctx.fillStyle = COLOR.accent;
  ctx.fillText(`${signedPoints(who.points)} points`, x + width / 2, top + 74);
  ctx.font = font(32, 700);
  ctx.fillStyle = COLOR.text;
  ctx.textBaseline = 'bottom';
  ctx.fillText(fitWidth(ctx, who.name, width - 16), x + width / 2, top - 12);
  ctx.textAlign = 'left';
}

/** A season's top three on a podium (second, first, third from the left), as a PNG. */
export function drawPodiumCard(card: SeasonPodium): Promise<Blob> {
  const { canvas, ctx } = newCanvas();
  drawLabel(ctx, SHARE_CARD_TEXT.podiumLabel);
  drawText(ctx, card.seasonName, {
    x: MARGIN,
    y: 172,
    width: CARD_WIDTH - 2 * MARGIN,
    size: 48,
    weight: 800,
    color: COLOR.text,
    maxLines: 1,
  });
  const stepWidth = 300;
  const gap = 24;
  const left = (CARD_WIDTH - 3 * stepWidth - 2 * gap) / 2;
  PODIUM_STEPS.forEach((step, index) => {
    const who = card.places[step.place - 1];
    if (who) drawStep(ctx, left + index * (stepWidth + gap), stepWidth, step, who);
  });
  drawFooter(ctx, card.groupName);
  return toPng(canvas);
}
