import { Webhook as WebhookIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Webhook, WebhookDelivery } from '../../domain/schemas/webhooks';
import { WEBHOOK_LIMITS } from '../../domain/webhooks';
import { errorMessage, isNetworkError } from '../data/api-client';
import {
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '../data/webhooks-api';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { openModal, replaceModal } from '../shell/modal-store';
import { toast } from '../shell/toast-store';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';
import { WebhookDeliveries, deliveryStatus } from './webhook-deliveries';
import { AddWebhookForm, WEBHOOK_EVENT_LABELS, WebhookSecret } from './webhook-form';
import styles from './group-webhooks.module.css';

// Settings → Webhooks, for the group's admins (docs/integrations.md, "Webhooks"): the group's
// hooks with their events, paused state and last delivery; Add, a hook's deliveries with "Send
// again", Rotate secret and Delete. Admin calls straight to the server (data/webhooks-api.ts),
// not outbox writes: without a connection the list says it needs one.

const TEXT = {
  title: 'Webhooks',
  hint: 'Send what happens here to a chat channel or another app.',
  none: 'No webhooks yet.',
  offline: 'Webhooks need a connection.',
  loadFailed: 'Could not load the webhooks.',
  add: 'Add webhook',
  addTitle: 'Add webhook',
  limit: `Up to ${WEBHOOK_LIMITS.perGroup} webhooks per group.`,
  secretTitle: 'Webhook added',
  paused: 'Paused',
  resume: 'Turn back on',
  resumed: 'Webhook turned back on.',
  deliveries: 'Deliveries',
  deliveriesTitle: 'Deliveries',
  noDelivery: 'Nothing sent yet',
  rotate: 'Rotate secret',
  rotateTitle: 'Rotate the secret?',
  rotateBody:
    'A new secret is made. The old one keeps signing beside it for 24 hours, time to update the receiving app.',
  rotating: 'Rotating...',
  rotateFailed: 'Could not rotate the secret. Please try again.',
  newSecretTitle: 'New secret',
  remove: 'Delete',
  removeTitle: 'Delete this webhook?',
  removeBody: 'Nothing more is sent to it, and its deliveries go with it.',
  removing: 'Deleting...',
  removeFailed: 'Could not delete the webhook. Please try again.',
  removed: 'Webhook deleted.',
  keep: 'Keep it',
  failed: 'That did not work. Please try again.',
};

interface HookRow {
  hook: Webhook;
  last: WebhookDelivery | undefined;
}

/** The address without its secret-bearing path: host and the start of the path. */
export function shortUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const { host, pathname } = new URL(url);
  const path = pathname.length > 14 ? `${pathname.slice(0, 12)}…` : pathname;
  return `${host}${path === '/' ? '' : path}`;
}

async function loadRows(groupId: number): Promise<HookRow[]> {
  const hooks = await listWebhooks(groupId);
  const lasts = await Promise.all(hooks.map((hook) => listDeliveries(groupId, hook.id)));
  return hooks.map((hook, index) => ({ hook, last: lasts[index]?.[0] }));
}

export function GroupWebhooks({ groupId }: { groupId: number }) {
  const [rows, setRows] = useState<HookRow[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | null>(null);

  const [version, setVersion] = useState(0);
  const reload = () => setVersion((count) => count + 1);

  useEffect(() => {
    let isCurrent = true;
    loadRows(groupId).then(
      (loaded) => {
        if (!isCurrent) return;
        setRows(loaded);
        setFailure(null);
      },
      (error: unknown) => {
        console.warn('Loading the webhooks failed', error);
        if (isCurrent)
          setFailure(isNetworkError(error) ? TEXT.offline : errorMessage(error, TEXT.loadFailed));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, version]);

  const openAdd = () =>
    openModal({
      title: TEXT.addTitle,
      onClose: reload,
      render: () => (
        <AddWebhookForm
          groupId={groupId}
          onAdded={(secret) => {
            reload();
            showSecret(TEXT.secretTitle, secret);
          }}
        />
      ),
    });

  return (
    <section className={styles.section} aria-labelledby="group-webhooks">
      <h3 id="group-webhooks" className={styles.title}>
        {TEXT.title}
      </h3>
      <p className={styles.muted}>{TEXT.hint}</p>
      {failure ? (
        <p className={styles.muted} role="status">
          {failure}
        </p>
      ) : rows === undefined ? (
        <Spinner label="Loading webhooks" />
      ) : rows.length === 0 ? (
        <p className={styles.muted}>{TEXT.none}</p>
      ) : (
        <ul className={styles.hooks}>
          {rows.map(({ hook, last }) => (
            <HookItem key={hook.id} groupId={groupId} hook={hook} last={last} onChanged={reload} />
          ))}
        </ul>
      )}
      {rows && rows.length >= WEBHOOK_LIMITS.perGroup ? (
        <p className={styles.muted}>{TEXT.limit}</p>
      ) : (
        <Button
          variant="secondary"
          size="small"
          icon={<WebhookIcon size={16} aria-hidden="true" />}
          disabled={groupId < 0 || failure !== null || rows === undefined}
          onClick={openAdd}
        >
          {TEXT.add}
        </Button>
      )}
    </section>
  );
}

function showSecret(title: string, secret: string) {
  replaceModal({ title, render: (close) => <WebhookSecret secret={secret} onDone={close} /> });
}

function HookItem({
  groupId,
  hook,
  last,
  onChanged,
}: HookRow & { groupId: number; onChanged: () => void }) {
  const label = shortUrl(hook.url);
  const act = (run: () => Promise<unknown>, done: string) =>
    void run().then(
      () => {
        toast.success(done);
        onChanged();
      },
      (error: unknown) => toast.error(errorMessage(error, TEXT.failed)),
    );
  return (
    <li className={styles.hook}>
      <div className={styles.hookHead}>
        <span className={styles.url} title={hook.url}>
          {label}
        </span>
        {hook.pausedAt && <span className={styles.paused}>{TEXT.paused}</span>}
      </div>
      <p className={styles.muted}>
        {hook.events.map((event) => WEBHOOK_EVENT_LABELS[event]).join(' · ')}
        {hook.postResults && ' · with results'}
      </p>
      <p className={styles.status}>{last ? deliveryStatus(last) : TEXT.noDelivery}</p>
      <div className={styles.actions}>
        {hook.pausedAt && (
          <Button
            size="small"
            onClick={() =>
              act(() => updateWebhook(groupId, hook.id, { paused: false }), TEXT.resumed)
            }
          >
            {TEXT.resume}
          </Button>
        )}
        <Button
          variant="secondary"
          size="small"
          aria-label={`${TEXT.deliveries}: ${label}`}
          onClick={() =>
            openModal({
              title: TEXT.deliveriesTitle,
              onClose: onChanged,
              render: () => <WebhookDeliveries groupId={groupId} hook={hook} />,
            })
          }
        >
          {TEXT.deliveries}
        </Button>
        <Button
          variant="ghost"
          size="small"
          aria-label={`${TEXT.rotate}: ${label}`}
          onClick={() =>
            openModal({
              title: TEXT.rotateTitle,
              size: 'narrow',
              render: (close) => (
                <ConfirmDialog
                  body={TEXT.rotateBody}
                  keepLabel={TEXT.keep}
                  confirmLabel={TEXT.rotate}
                  busyLabel={TEXT.rotating}
                  failedMessage={TEXT.rotateFailed}
                  onConfirm={async () => {
                    const { secret } = await rotateWebhookSecret(groupId, hook.id);
                    onChanged();
                    showSecret(TEXT.newSecretTitle, secret);
                  }}
                  onDone={close}
                />
              ),
            })
          }
        >
          {TEXT.rotate}
        </Button>
        <Button
          variant="ghost"
          size="small"
          aria-label={`${TEXT.remove}: ${label}`}
          onClick={() =>
            openModal({
              title: TEXT.removeTitle,
              size: 'narrow',
              render: (close) => (
                <ConfirmDialog
                  body={TEXT.removeBody}
                  keepLabel={TEXT.keep}
                  confirmLabel={TEXT.remove}
                  busyLabel={TEXT.removing}
                  failedMessage={TEXT.removeFailed}
                  onConfirm={async () => {
                    await deleteWebhook(groupId, hook.id);
                    toast.success(TEXT.removed);
                    onChanged();
                  }}
                  onDone={close}
                />
              ),
            })
          }
        >
          {TEXT.remove}
        </Button>
      </div>
    </li>
  );
}
