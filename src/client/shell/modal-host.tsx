import { X } from 'lucide-react';
import { useEffect, useId, useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { modalStore as defaultStore, type ModalEntry, type ModalStore } from './modal-store';
import { useBackClosesModal } from './modal-history';
import styles from './modal-host.module.css';

// Renders the one open modal: an aria-modal dialog with backdrop, close button and Escape,
// page scroll locked, focus moved in, trapped, and given back on close (docs/accounts-and-shell.md §2);
// the phone's Back closes it or steps back inside it (modal-history.ts).

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ModalHost({ store = defaultStore }: { store?: ModalStore }) {
  const entry = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  useBackClosesModal(store, entry !== null && !entry.isClosing);
  if (!entry) return null;
  return createPortal(
    <ModalDialog key={entry.id} entry={entry} onClose={() => store.close(entry.id)} />,
    document.body,
  );
}

function useScrollLock() {
  useEffect(() => {
    const { body, documentElement } = document;
    const previous = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    // Keep the page from shifting sideways when its scrollbar disappears.
    const scrollbar = window.innerWidth - documentElement.clientWidth;
    body.style.overflow = 'hidden';
    if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`;
    return () => {
      body.style.overflow = previous.overflow;
      body.style.paddingRight = previous.paddingRight;
    };
  }, []);
}

function ModalDialog({ entry, onClose }: { entry: ModalEntry; onClose: () => void }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useScrollLock();

  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    const returnFocus = entry.returnFocus;
    // The first control of the body, not the close button: the person came to fill it in.
    const first =
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ??
      bodyRef.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog)?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (returnFocus?.isConnected) returnFocus.focus();
    };
  }, [entry.returnFocus]);

  const trapFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className={styles.layer} data-state={entry.isClosing ? 'closing' : 'open'}>
      <div
        className={styles.backdrop}
        onClick={onClose}
        data-testid="modal-backdrop"
        aria-hidden="true"
      />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`${styles.dialog} ${entry.size === 'narrow' ? styles.narrow : ''}`}
        onKeyDown={trapFocus}
      >
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {entry.title}
          </h2>
          {/* Pressing it leaves the focus where it is: a field left empty would otherwise
              show its error on blur and grow the sheet, moving the X from under the finger
              before the click lands. */}
          <button
            type="button"
            className={styles.close}
            onMouseDown={(event) => event.preventDefault()}
            onClick={onClose}
            aria-label="Close"
          >
            <X size={22} aria-hidden="true" />
          </button>
        </div>
        <div ref={bodyRef} className={styles.body}>
          {entry.render(onClose)}
        </div>
      </div>
    </div>
  );
}
