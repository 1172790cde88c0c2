import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import {
  createWebhookRequestSchema,
  type CreateWebhookRequest,
} from '../../domain/schemas/webhooks';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../../domain/webhooks';
import { errorMessage } from '../data/api-client';
import { createWebhook } from '../data/webhooks-api';
import { asyncHandler } from '../ui/async-handler';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { CopyLink } from '../ui/copy-link';
import { FieldError } from '../ui/field-error';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';
import { Toggle } from '../ui/toggle';
import styles from './group-webhooks.module.css';

// "Add webhook" (docs/integrations.md, "Webhooks"): a URL, the events it hears and "Post
// results" (off: no spoilers in the channel), checked by the request schema of POST
// /groups/{id}/webhooks. The server's answer carries the secret, shown once (WebhookSecret).

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'bet.created': 'New bet',
  'bet.closing_soon': 'Closing soon',
  'bet.closed': 'Betting closed',
  'bet.resolved': 'Result',
  'bet.cancelled': 'Cancelled',
  'member.joined': 'New member',
  'leaderboard.weekly': 'Weekly table',
};

const TEXT = {
  url: 'URL',
  urlHint: 'A Discord or Slack channel webhook works as it is.',
  events: 'Send',
  postResults: 'Post results',
  postResultsHint: 'Names the answer and the winners. Off: no spoilers in the chat.',
  add: 'Add webhook',
  adding: 'Adding...',
  failed: 'Could not add the webhook. Please try again.',
  secret: 'Signing secret',
  secretHint: "You won't see it again. Keep it where the receiving app can check signatures.",
  copy: 'Copy',
  done: 'Done',
};

export function AddWebhookForm({
  groupId,
  onAdded,
}: {
  groupId: number;
  /** With the new hook's secret, to be shown once. */
  onAdded: (secret: string) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CreateWebhookRequest>({
    resolver: zodResolver(createWebhookRequestSchema),
    mode: 'onTouched',
    defaultValues: {
      url: '',
      events: ['bet.created', 'bet.closed', 'bet.resolved'],
      postResults: false,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const hook = await createWebhook(groupId, values);
      onAdded(hook.secret);
    } catch (error) {
      console.warn('Adding a webhook failed', error);
      setFailure(errorMessage(error, TEXT.failed));
    }
  });

  return (
    <form className={styles.form} onSubmit={asyncHandler(onSubmit)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <TextField
        label={TEXT.url}
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://"
        hint={TEXT.urlHint}
        error={errors.url?.message}
        {...form.register('url')}
      />
      <fieldset className={styles.events} aria-describedby="webhook-events-error">
        <legend className={styles.legend}>{TEXT.events}</legend>
        <Controller
          control={form.control}
          name="events"
          render={({ field }) => (
            <div className={styles.eventGrid}>
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox
                  key={event}
                  label={WEBHOOK_EVENT_LABELS[event]}
                  checked={field.value.includes(event)}
                  onChange={(change) =>
                    field.onChange(
                      change.target.checked
                        ? [...field.value, event]
                        : field.value.filter((chosen) => chosen !== event),
                    )
                  }
                />
              ))}
            </div>
          )}
        />
        <FieldError id="webhook-events-error" message={errors.events?.message} />
      </fieldset>
      <Controller
        control={form.control}
        name="postResults"
        render={({ field }) => (
          <Toggle
            label={TEXT.postResults}
            description={TEXT.postResultsHint}
            checked={field.value ?? false}
            onChange={field.onChange}
          />
        )}
      />
      <Button type="submit" fullWidth isLoading={isSubmitting} loadingText={TEXT.adding}>
        {TEXT.add}
      </Button>
    </form>
  );
}

/** A hook's secret, right after it was made or rotated: the only time it is shown. */
export function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div className={styles.form}>
      <FormAlert tone="info">{TEXT.secretHint}</FormAlert>
      <CopyLink link={secret} label={TEXT.secret} copyLabel={TEXT.copy} />
      <Button variant="secondary" fullWidth onClick={onDone}>
        {TEXT.done}
      </Button>
    </div>
  );
}
