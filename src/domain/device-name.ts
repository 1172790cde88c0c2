// The device name of a push subscription (docs/groups-and-bets.md §3: "a derived label such as Mobile
// Chrome, Desktop Firefox, iPad, Desktop Browser"), so a player can tell their devices
// apart. Pure: the user agent string is passed in.

const BROWSERS: Array<[RegExp, string]> = [
  // Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera|OPiOS)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

export type DeviceKind = 'iPad' | 'iPhone' | 'Tablet' | 'Mobile' | 'Desktop';

/** What kind of device a user agent describes. iPadOS 13+ in desktop mode reads as a Mac; touch points tell it apart. */
export function deviceKind(userAgent: string, maxTouchPoints = 0): DeviceKind {
  if (/\biPad\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1))
    return 'iPad';
  if (/\biPhone\b|\biPod\b/.test(userAgent)) return 'iPhone';
  if (/\bAndroid\b/.test(userAgent)) return /\bMobile\b/.test(userAgent) ? 'Mobile' : 'Tablet';
  if (/\b(Mobi|Mobile|Windows Phone|BlackBerry|Opera Mini)\b/i.test(userAgent)) return 'Mobile';
  if (/\b(Tablet|Silk|Kindle)\b/.test(userAgent)) return 'Tablet';
  return 'Desktop';
}

/** The browser's family name, or "Browser" when the user agent names none we know. */
export function browserName(userAgent: string): string {
  return BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Browser';
}

/**
 * "Mobile Chrome", "Desktop Firefox", "Tablet Chrome", "Desktop Browser"; an Apple phone or
 * tablet is named by the device itself ("iPad", "iPhone"), since every browser there is Safari
 * underneath.
 */
export function deriveDeviceName(userAgent: string, maxTouchPoints = 0): string {
  const kind = deviceKind(userAgent, maxTouchPoints);
  if (kind === 'iPad' || kind === 'iPhone') return kind;
  return `${kind} ${browserName(userAgent)}`;
}
