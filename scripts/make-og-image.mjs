// Renders the link-preview image (public/og-image.png, 1200×630) that chat apps show for a
// shared bet link (src/server/link-preview.ts), with Debian's Chromium, like make-icons.mjs.
// Run once after changing it: `node scripts/make-og-image.mjs`; the PNG is committed. It is
// the same for every bet: a private bet's preview must not show anything of the bet.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'public/og-image.png');

const FONT = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif`;
const MARK = `<svg width="120" height="120" viewBox="0 0 64 64"><rect width="64" height="64" rx="16" fill="#6d28d9"/><path d="M20 16h7v13h10V16h7v32h-7V35H27v13h-7z" fill="#fff"/><circle cx="47" cy="17" r="7" fill="#f59e0b"/></svg>`;

const html = `<!doctype html><html><body style="margin:0">
<div style="position:relative;overflow:hidden;width:1200px;height:630px;background:#f7f6fb;font-family:${FONT};color:#1c1830">
  <div style="position:absolute;right:-260px;top:-260px;width:520px;height:520px;border-radius:50%;background:#ede9fe"></div>
  <div style="position:absolute;left:64px;top:96px;display:flex;align-items:center;gap:32px">
    ${MARK}<span style="font-size:96px;font-weight:800;letter-spacing:-2px">Hunch</span>
  </div>
  <p style="position:absolute;left:64px;top:270px;margin:0;font-size:56px;font-weight:700;line-height:1.2;max-width:1000px">
    Call it before it happens.<br><span style="color:#5b5670;font-weight:500">The prediction game for friends.</span>
  </p>
  <div style="position:absolute;left:0;right:0;bottom:0;height:96px;background:#fff;border-top:2px solid #e2dfeb;display:flex;align-items:center;justify-content:flex-end;padding:0 64px;gap:14px">
    <span style="width:24px;height:24px;border-radius:50%;background:#f59e0b"></span>
    <span style="font-size:28px;font-weight:600;color:#92400e">Virtual points, no money</span>
  </div>
</div></body></html>`;

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
  const page = await browser.newPage({
    deviceScaleFactor: 1,
    viewport: { width: 1200, height: 630 },
  });
  await page.setContent(html);
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1200, height: 630 } });
  console.log('public/og-image.png');
} finally {
  await browser.close();
}
