// How the data layer tells the player something (a refused write, "Reconnecting..."):
// through the shell's toasts, handed in when the shell starts the local data (startLocalData).
// data/ never imports shell/: the toasts come in, as the outbox's notifyError and every
// factory's `toasts` option take them. Until connected (a test building its own parts) a notice
// goes nowhere.

type NoticeType = 'success' | 'error' | 'warning' | 'info';

interface NoticeOptions {
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

/** The shell hands its toast store in when it starts the local data. */
export function connectNotices(target: Notices): void {
  connected = target;
}

/** The app's notices, forwarded to whatever the shell connected. */
export const notices: Notices = {
  show: (message, type, options) => connected?.show(message, type, options) ?? 0,
  update: (id, message) => connected?.update(id, message) ?? false,
  dismiss: (id) => connected?.dismiss(id),
  info: (message) => connected?.info(message),
  error: (message) => connected?.error(message),
};
