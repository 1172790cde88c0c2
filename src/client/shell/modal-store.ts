import type { ReactNode } from 'react';

// One modal at a time (docs/accounts-and-shell.md §2): opening one while another is open replaces it with a
// warning. Closing plays the exit animation, then removes it. Any code opens a modal with
// openModal({ title, render: (close) => <MyForm onDone={close} /> }); replaceModal(...) for the
// next step of the open modal's flow (no warning).

export const MODAL_ANIMATION_MS = 250;

export interface ModalRequest {
  /** The dialog's accessible name, shown as its heading. */
  title: string;
  /** The body; `close` closes this modal. */
  render: (close: () => void) => ReactNode;
  /** Narrow for confirmations, normal for forms. */
  size?: 'narrow' | 'normal';
  onClose?: () => void;
}

export interface ModalEntry extends ModalRequest {
  id: number;
  isClosing: boolean;
  /** Where focus goes back to once the modal is gone. */
  returnFocus: HTMLElement | null;
}

export type ModalStore = ReturnType<typeof createModalStore>;

export function createModalStore(animationMs = MODAL_ANIMATION_MS) {
  let current: ModalEntry | null = null;
  let nextId = 1;
  let removeTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  /** A step of the open modal's flow that the phone's Back returns to (the bet form's Details). */
  let backStep: (() => void) | null = null;

  const publish = (entry: ModalEntry | null) => {
    current = entry;
    for (const listener of [...listeners]) listener();
  };

  const close = (id?: number) => {
    if (!current || current.isClosing || (id !== undefined && current.id !== id)) return;
    const closing = current;
    backStep = null;
    publish({ ...closing, isClosing: true });
    closing.onClose?.();
    removeTimer = setTimeout(() => {
      if (current?.id === closing.id) publish(null);
    }, animationMs);
  };

  const show = (request: ModalRequest, isExpectedReplacement: boolean): number => {
    clearTimeout(removeTimer);
    let returnFocus =
      typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null);
    if (current && !current.isClosing) {
      if (!isExpectedReplacement)
        console.warn(
          `A modal is already open ("${current.title}"); "${request.title}" replaces it.`,
        );
      current.onClose?.();
      // Focus was inside the replaced modal; give it back to what opened the first one.
      returnFocus = current.returnFocus;
    }
    backStep = null;
    const entry: ModalEntry = { ...request, id: nextId++, isClosing: false, returnFocus };
    publish(entry);
    return entry.id;
  };
  const open = (request: ModalRequest) => show(request, false);
  /** The open modal turns into the next step of its flow (the join modal into the push prompt, docs/groups-and-bets.md §4). */
  const replace = (request: ModalRequest) => show(request, true);

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => current,
    open,
    replace,
    close,
    /** While set, Back steps back inside the open modal instead of closing it (modal-history.ts). */
    setBackStep(step: (() => void) | null) {
      backStep = step;
    },
    /** The phone's Back: a step back inside the modal if it has one (true), else it closes. */
    back(): boolean {
      if (!backStep) {
        close();
        return false;
      }
      backStep();
      return true;
    },
  };
}

export const modalStore = createModalStore();
export const openModal = modalStore.open;
export const replaceModal = modalStore.replace;
