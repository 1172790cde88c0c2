// Installing Hunch. Chromium offers its own install prompt through
// `beforeinstallprompt`, which fires once, early: `captureInstallPrompt()` runs at app start
// (start-pwa.ts) and keeps the event until the player asks. iOS has no such event: Safari
// installs through Share → Add to Home Screen, and only an app added that way may receive
// push (Safari 16.4+), so there the install card shows the steps and says why.

/** Chromium's install prompt event (not in TypeScript's DOM lib). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** How this browser installs Hunch: already installed, its own prompt, the iOS steps, or not at all. */
export type InstallWay = 'installed' | 'prompt' | 'ios' | 'none';

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Keeps Chromium's install prompt for later (the browser's own mini-bar stays away). */
export function captureInstallPrompt(target: Window = window): void {
  target.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    notify();
  });
  target.addEventListener('appinstalled', () => {
    deferred = null;
    notify();
  });
}

export function onInstallPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** iPhone, iPod or iPad (iPadOS says "Macintosh" but has a touch screen). */
export function isIos(userAgent: string, maxTouchPoints: number): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/** Opened from the home screen (or as an installed desktop app). */
export function isStandalone(win: Window = window): boolean {
  const nav = win.navigator as Navigator & { standalone?: boolean };
  return (
    nav.standalone === true ||
    (typeof win.matchMedia === 'function' && win.matchMedia('(display-mode: standalone)').matches)
  );
}

export function readInstallWay(win: Window = window): InstallWay {
  if (isStandalone(win)) return 'installed';
  if (deferred) return 'prompt';
  if (isIos(win.navigator.userAgent, win.navigator.maxTouchPoints ?? 0)) return 'ios';
  return 'none';
}

/** Shows Chromium's prompt; the event is single use, so it is dropped whatever the answer. */
export async function promptInstall(): Promise<boolean> {
  const event = deferred;
  if (!event) return false;
  deferred = null;
  await event.prompt();
  const { outcome } = await event.userChoice;
  notify();
  return outcome === 'accepted';
}
