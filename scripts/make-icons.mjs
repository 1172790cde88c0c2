// Renders Hunch's app icons (public/icons/*.png) from the SVG mark with Debian's Chromium.
// Run once after changing the mark: `node scripts/make-icons.mjs`; the PNGs are committed,
// so builds never need a browser. Sizes: 192 and 512 for the manifest ("any" and
// "maskable"), 180 for iOS's apple-touch-icon, and a 96 px white badge for Android's status bar.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public/icons');

const BRAND = '#6d28d9';
const ACCENT = '#f59e0b';
/** The H and the amber coin of public/favicon.svg, on a 64-unit grid. */
const GLYPH = `<path d="M20 16h7v13h10V16h7v32h-7V35H27v13h-7z" fill="#fff"/><circle cx="47" cy="17" r="7" fill="${ACCENT}"/>`;

const svgs = {
  // "any": the favicon's rounded square; the corners stay transparent.
  any: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${BRAND}"/>${GLYPH}</svg>`,
  // "maskable": full bleed, the mark inside the central 80 % safe circle whatever the mask.
  maskable: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(32 32) scale(0.72) translate(-32 -32)">${GLYPH}</g></svg>`,
  // iOS rounds the corners itself and shows transparency as black.
  apple: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(32 32) scale(0.86) translate(-32 -32)">${GLYPH}</g></svg>`,
  // Android draws the badge from its alpha channel only: a white H and coin on nothing.
  badge: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M14 12h9v16h14V12h9v40h-9V36H23v16h-9z" fill="#fff"/><circle cx="52" cy="12" r="7" fill="#fff"/></svg>`,
};

const targets = [
  ['icon-192.png', 'any', 192],
  ['icon-512.png', 'any', 512],
  ['maskable-192.png', 'maskable', 192],
  ['maskable-512.png', 'maskable', 512],
  ['apple-touch-icon.png', 'apple', 180],
  ['badge-96.png', 'badge', 96],
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const [file, kind, size] of targets) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${svgs[kind].replace('<svg ', `<svg width="${size}" height="${size}" style="display:block" `)}</body></html>`,
    );
    await page.screenshot({
      path: path.join(outDir, file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    console.log(`public/icons/${file}`);
  }
} finally {
  await browser.close();
}
