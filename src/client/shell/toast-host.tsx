import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { modalStore } from './modal-store';
import { toast as defaultStore, type Toast, type ToastStore } from './toast-store';
import styles from './toast-host.module.css';

const ICONS = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, info: Info };

// The live region exists from the start so screen readers announce toasts added later.
export function ToastHost({ store = defaultStore }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  // A phone's modal is a sheet rising from the bottom, its buttons where the toasts stand: while
  // one is open the toasts move to the top, so none covers a prompt's button.
  const modal = useSyncExternalStore(
    modalStore.subscribe,
    modalStore.getSnapshot,
    modalStore.getSnapshot,
  );
  return (
    <section
      className={styles.region}
      data-over-modal={modal ? 'true' : undefined}
      aria-label="Notifications"
      aria-live="polite"
    >
      {toasts.map((item) => (
        <ToastItem key={item.id} toast={item} onDismiss={() => store.dismiss(item.id)} />
      ))}
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const Icon = ICONS[toast.type];
  return (
    <div
      className={`${styles.toast} ${styles[toast.type]}`}
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-state={toast.isLeaving ? 'leaving' : 'shown'}
    >
      <Icon className={styles.icon} size={20} aria-hidden="true" />
      <p className={styles.message}>{toast.message}</p>
      {toast.action && (
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            toast.action?.onClick();
            onDismiss();
          }}
        >
          {toast.action.label}
        </button>
      )}
      {toast.dismissible && (
        <button
          type="button"
          className={styles.dismiss}
          onClick={onDismiss}
          aria-label="Dismiss notification"
        >
          <X size={18} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
