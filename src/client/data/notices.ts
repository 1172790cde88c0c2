// How the data layer tells the player something (a refused write, a refund, "Reconnecting..."):
// through the shell's toasts, which main.tsx connects at start. data/ never imports shell/, so
// the toasts come in here, as the outbox's notifyError and every factory's `toasts` option take
// them; until connected (a test building its own parts) a notice goes nowhere.

export type NoticeType = 'success' | 'error' | 'warning' | 'info';

export interface NoticeOptions {
  dismissible?: boolean;
  /** In ms; 0 keeps it until dismissed. */
  duration?: number;
}

export interface Notices {
  /** Returns the notice's id, for `update` and `dismiss`. */
  show(message: string, type: NoticeType, options?: NoticeOptions): number;
  /** False once the notice is gone. */
  update(id: number, message: string): boolean;
  dismiss(id: number): void;
  info(message: string): void;
  error(message: string): void;
}

let connected: Notices | null = null;

/** main.tsx hands the shell's toast store in once, before anything can notify. */
export function connectNotices(target: Notices): void {
  connected = target;
}

/** The app's notices, forwarded to whatever main.tsx connected. */
export const notices: Notices = {
  show: (message, type, options) => connected?.show(message, type, options) ?? 0,
  update: (id, message) => connected?.update(id, message) ?? false,
  dismiss: (id) => connected?.dismiss(id),
  info: (message) => connected?.info(message),
  error: (message) => connected?.error(message),
};
