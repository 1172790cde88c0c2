import { Link2Off, UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { InvitePreview } from '../../domain/groups';
import { isCutInviteLink, pendingInvite } from '../../domain/return-url';
import { ApiError } from '../data/api-client';
import { previewInvite } from '../data/invite-api';
import styles from './invite-note.module.css';

const TEXT = {
  invited: (preview: InvitePreview) => `${preview.inviterName} invited you to ${preview.groupName}`,
  next: "Sign in, create an account or play as a guest: you'll land in the group.",
  incomplete: 'This invite link is incomplete — ask for a new one',
};

/** Answers already had, by "id:code": the server refused the code (wrong, or cut short). */
const refusedCodes = new Set<string>();

/** The server's word that the code opens nothing, as against a lookup that failed. */
const isRefusal = (error: unknown) =>
  error instanceof ApiError &&
  (error.code === 'invalid_invite_code' || error.code === 'validation_failed');

/** Answers already had, by "id:code": moving between the account screens asks once. */
const knownPreviews = new Map<string, InvitePreview>();

/**
 * On every account screen a visitor reaches from an invite link: who invited them to what.
 * The invite rides in the screen's returnUrl (src/domain/return-url.ts), so whichever way in
 * they take ends in the group. A link cut short, or a code the server refuses, says the link
 * is incomplete; a failed lookup (offline) shows nothing. `search`
 * stands in for the address's query where the invite comes from elsewhere (the reset page
 * takes it back from this browser after the mail's round trip).
 */
export function InviteNote({ search: given }: { search?: string }) {
  const location = useLocation();
  const search = given ?? location.search;
  const invite = pendingInvite(search);
  const groupId = invite?.groupId;
  const inviteCode = invite?.inviteCode;
  const key = invite ? `${invite.groupId}:${invite.inviteCode}` : null;
  const [fetched, setFetched] = useState<{ key: string; value: InvitePreview | 'refused' } | null>(
    null,
  );

  useEffect(() => {
    if (groupId === undefined || inviteCode === undefined) return;
    const previewKey = `${groupId}:${inviteCode}`;
    if (knownPreviews.has(previewKey) || refusedCodes.has(previewKey)) return;
    let isCurrent = true;
    previewInvite(groupId, inviteCode).then(
      (value) => {
        knownPreviews.set(previewKey, value);
        if (isCurrent) setFetched({ key: previewKey, value });
      },
      (error: unknown) => {
        if (!isRefusal(error)) {
          console.warn('The invite could not be looked up', error);
          return;
        }
        refusedCodes.add(previewKey);
        if (isCurrent) setFetched({ key: previewKey, value: 'refused' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, inviteCode]);

  const answer =
    key === null
      ? undefined
      : (knownPreviews.get(key) ??
        (refusedCodes.has(key) ? 'refused' : fetched?.key === key ? fetched.value : undefined));
  // A cut-off link says so before any account is made (issue #42), not after, on a group
  // screen that refuses the code: the code it carries (if any) opens nothing.
  if (answer === 'refused' || isCutInviteLink(search)) return <IncompleteInvite />;
  const preview = answer;
  if (!preview) return null;
  return (
    <section className={styles.note} aria-labelledby="invite-note-title">
      <UserPlus size={24} aria-hidden="true" className={styles.icon} />
      <div>
        <h2 id="invite-note-title" className={styles.title}>
          {TEXT.invited(preview)}
        </h2>
        <p className={styles.next}>{TEXT.next}</p>
      </div>
    </section>
  );
}

function IncompleteInvite() {
  return (
    <section className={`${styles.note} ${styles.warning}`} aria-labelledby="invite-note-title">
      <Link2Off size={24} aria-hidden="true" className={styles.icon} />
      <h2 id="invite-note-title" className={styles.title}>
        {TEXT.incomplete}
      </h2>
    </section>
  );
}
