import { useEffect, useState } from 'react';
import type { Webhook, WebhookDelivery } from '../../domain/schemas/webhooks';
import { errorMessage, isNetworkError } from '../data/api-client';
import { listDeliveries, retryDelivery } from '../data/webhooks-api';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { WEBHOOK_EVENT_LABELS } from './webhook-form';
import styles from './group-webhooks.module.css';

// A hook's last deliveries (the server keeps and answers the last 50, newest first): what was
// sent, when, how it went and the receiver's status code, each with "Send again" (the same
// event, same webhook-id, sent once more).

const TEXT = {
  none: 'Nothing sent yet. Deliveries show here once something happens in the group.',
  offline: 'Deliveries need a connection.',
  loadFailed: 'Could not load the deliveries.',
  again: 'Send again',
  queued: 'Sending again.',
  failed: 'Could not send it again. Please try again.',
};

const dateTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "Delivered · 200", "Failed · 500", "Waiting (try 2)" — a delivery's state in a few words. */
export function deliveryStatus(delivery: WebhookDelivery): string {
  const code = delivery.responseStatus === null ? '' : ` · ${delivery.responseStatus}`;
  if (delivery.state === 'delivered') return `Delivered${code}`;
  if (delivery.state === 'failed') return `Failed${code || ` · ${delivery.error ?? 'no answer'}`}`;
  return delivery.attempts > 0 ? `Retrying${code}` : 'Sending';
}

export function WebhookDeliveries({ groupId, hook }: { groupId: number; hook: Webhook }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);

  const [version, setVersion] = useState(0);

  useEffect(() => {
    let isCurrent = true;
    listDeliveries(groupId, hook.id).then(
      (loaded) => {
        if (!isCurrent) return;
        setDeliveries(loaded);
        setFailure(null);
      },
      (error: unknown) => {
        console.warn('Loading the deliveries failed', error);
        if (isCurrent)
          setFailure(isNetworkError(error) ? TEXT.offline : errorMessage(error, TEXT.loadFailed));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, hook.id, version]);

  const again = (delivery: WebhookDelivery) =>
    void retryDelivery(groupId, hook.id, delivery.id).then(
      () => {
        toast.success(TEXT.queued);
        setVersion((count) => count + 1);
      },
      (error: unknown) => toast.error(errorMessage(error, TEXT.failed)),
    );

  if (failure) return <p className={styles.muted}>{failure}</p>;
  if (!deliveries) return <Spinner label="Loading deliveries" />;
  if (deliveries.length === 0) return <p className={styles.muted}>{TEXT.none}</p>;
  return (
    <ul className={styles.deliveries} aria-label="Deliveries">
      {deliveries.map((delivery) => (
        <li key={delivery.id} className={styles.delivery}>
          <div className={styles.deliveryText}>
            <span className={styles.deliveryType}>{WEBHOOK_EVENT_LABELS[delivery.type]}</span>
            <span className={styles.status}>{deliveryStatus(delivery)}</span>
            <time className={styles.muted} dateTime={delivery.lastAttemptAt ?? delivery.createdAt}>
              {dateTime.format(new Date(delivery.lastAttemptAt ?? delivery.createdAt))}
            </time>
          </div>
          <Button
            variant="secondary"
            size="small"
            className={styles.again}
            onClick={() => again(delivery)}
          >
            {TEXT.again}
          </Button>
        </li>
      ))}
    </ul>
  );
}
