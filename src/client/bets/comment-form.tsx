import { zodResolver } from '@hookform/resolvers/zod';
import { SendHorizontal } from 'lucide-react';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { COMMENT_LIMITS } from '../../domain/comments';
import { createCommentRequestSchema } from '../../domain/schemas/comments';
import type { z } from '../../domain/schemas/zod';
import { refusalText } from '../data/api-client';
import { forgetDraft, readDraft, saveDraft } from '../data/drafts';
import { Button } from '../ui/button';
import { DraftNote } from '../ui/draft-note';
import { FormAlert } from '../ui/form-alert';
import { TextAreaField } from '../ui/text-area-field';
import { postComment } from './comment-actions';
import styles from './comment-thread.module.css';

// Writing a comment: the box empties at once and the comment shows at the end of the thread,
// marked pending (offline it waits in the outbox). A refusal puts the text back with the
// server's message. Ctrl/⌘ + Enter sends. What is typed stays as a draft of its group on this
// device (data/drafts.ts) until sent or cleared, and fills the box again when the bet reopens.

const COMMENT_FORM_TEXT = {
  label: 'Add a comment',
  placeholder: 'Say something about this bet',
  send: 'Send',
  left: (count: number) => `${count} ${count === 1 ? 'character' : 'characters'} left`,
};

/** The counter shows once this few characters are left. */
const COUNTER_FROM = 100;

type CommentInput = z.input<typeof createCommentRequestSchema>;

export function CommentForm({ betId, groupId }: { betId: number; groupId: number }) {
  const [failure, setFailure] = useState<string | null>(null);
  const draftForm = `comment:${betId}` as const;
  const [draft] = useState(() => readDraft<string>(groupId, draftForm));
  const [isRestored, setIsRestored] = useState(Boolean(draft));
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    control,
    formState: { errors },
  } = useForm<CommentInput>({
    resolver: zodResolver(createCommentRequestSchema),
    defaultValues: { text: draft ?? '' },
  });
  const text = useWatch({ control, name: 'text' }) ?? '';
  const left = COMMENT_LIMITS.textMax - text.length;
  useEffect(() => {
    if (text.trim()) saveDraft(groupId, draftForm, text);
    else forgetDraft(groupId, draftForm);
  }, [groupId, draftForm, text]);
  const discardDraft = () => {
    setIsRestored(false);
    reset({ text: '' });
  };

  const send = handleSubmit(async ({ text }) => {
    setFailure(null);
    setIsRestored(false);
    reset({ text: '' });
    try {
      await postComment(betId, text);
    } catch (error) {
      setValue('text', text);
      setFailure(refusalText(error));
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className={styles.form} onSubmit={(event) => void send(event)} noValidate>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      {isRestored && <DraftNote onDiscard={discardDraft} />}
      <TextAreaField
        label={COMMENT_FORM_TEXT.label}
        placeholder={COMMENT_FORM_TEXT.placeholder}
        rows={2}
        maxLength={COMMENT_LIMITS.textMax}
        error={errors.text?.message}
        hint={left <= COUNTER_FROM ? COMMENT_FORM_TEXT.left(left) : undefined}
        onKeyDown={onKeyDown}
        {...register('text')}
      />
      <div className={styles.formActions}>
        <Button type="submit" icon={<SendHorizontal size={16} aria-hidden="true" />}>
          {COMMENT_FORM_TEXT.send}
        </Button>
      </div>
    </form>
  );
}
