import { UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { InvitePreview } from '../../domain/groups';
import { pendingInvite } from '../../domain/return-url';
import { previewInvite } from '../data/invite-api';
import styles from './invite-note.module.css';

const TEXT = {
  invited: (preview: InvitePreview) => `${preview.inviterName} invited you to ${preview.groupName}`,
  next: "Sign in, create an account or play as a guest: you'll land in the group.",
};

/** Answers already had, by "id:code": moving between the account screens asks once. */
const knownPreviews = new Map<string, InvitePreview>();

/**
 * On every account screen a visitor reaches from an invite link: who invited them to what.
 * The invite rides in the screen's returnUrl (src/domain/return-url.ts), so whichever way in
 * they take ends in the group; a wrong code or a failed lookup simply shows nothing. `search`
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
  const [fetched, setFetched] = useState<{ key: string; value: InvitePreview } | null>(null);

  useEffect(() => {
    if (groupId === undefined || inviteCode === undefined) return;
    const previewKey = `${groupId}:${inviteCode}`;
    if (knownPreviews.has(previewKey)) return;
    let isCurrent = true;
    previewInvite(groupId, inviteCode).then(
      (value) => {
        knownPreviews.set(previewKey, value);
        if (isCurrent) setFetched({ key: previewKey, value });
      },
      (error: unknown) => console.warn('The invite could not be looked up', error),
    );
    return () => {
      isCurrent = false;
    };
  }, [groupId, inviteCode]);

  const preview =
    key === null
      ? undefined
      : (knownPreviews.get(key) ?? (fetched?.key === key ? fetched.value : undefined));
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
