import { TIMING } from '../../domain/constants';

// Toasts (docs/accounts-and-shell.md §3, §4): success, error, warning and info; 5000 ms by default, error toasts
// have duration 0 and stay until dismissed; an optional action button. Call
// toast.success('Profile Updated!') from anywhere.

export type ToastType = 'success' | 'error' | 'warning' | 'info';

interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  dismissible: boolean;
  /** Milliseconds before it goes away by itself; 0 keeps it until dismissed. */
  duration: number;
  action?: ToastAction;
  isLeaving: boolean;
}

export type ToastOptions = Partial<Pick<Toast, 'dismissible' | 'duration' | 'action'>>;

export const TOAST_EXIT_MS = 200;

export type ToastStore = ReturnType<typeof createToastStore>;

export function createToastStore() {
  let toasts: Toast[] = [];
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();

  const publish = (next: Toast[]) => {
    toasts = next;
    for (const listener of [...listeners]) listener();
  };

  const dismiss = (id: number) => {
    const toast = toasts.find((t) => t.id === id);
    if (!toast || toast.isLeaving) return;
    clearTimeout(timers.get(id));
    publish(toasts.map((t) => (t.id === id ? { ...t, isLeaving: true } : t)));
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        publish(toasts.filter((t) => t.id !== id));
      }, TOAST_EXIT_MS),
    );
  };

  const show = (message: string, type: ToastType = 'info', options: ToastOptions = {}): number => {
    const id = nextId++;
    const duration = options.duration ?? (type === 'error' ? TIMING.errorToastMs : TIMING.toastMs);
    const toast: Toast = {
      id,
      message,
      type,
      dismissible: options.dismissible ?? true,
      duration,
      action: options.action,
      isLeaving: false,
    };
    publish([...toasts, toast]);
    if (duration > 0)
      timers.set(
        id,
        setTimeout(() => dismiss(id), duration),
      );
    return id;
  };

  /** Changes a shown toast's text in place (a progress toast such as "Reconnecting... (2/5)"); false once it is gone. */
  const update = (id: number, message: string): boolean => {
    const current = toasts.find((t) => t.id === id);
    if (!current || current.isLeaving) return false;
    if (current.message !== message)
      publish(toasts.map((t) => (t.id === id ? { ...t, message } : t)));
    return true;
  };

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
    show,
    update,
    dismiss,
    success: (message: string, options?: ToastOptions) => show(message, 'success', options),
    error: (message: string, options?: ToastOptions) => show(message, 'error', options),
    warning: (message: string, options?: ToastOptions) => show(message, 'warning', options),
    info: (message: string, options?: ToastOptions) => show(message, 'info', options),
  };
}

export const toast = createToastStore();
