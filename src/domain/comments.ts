import { deleteCommentRefusal, type GroupViewer } from './policies/group-policy';

// Comments on a bet: their types, limits, messages and rules (the wire schemas:
// schemas/comments.ts). A comment carries its author and text, never a prediction or a wager: nothing in it tells
// another member what its author picked (docs/architecture.md §5). A deleted comment stays as a
// tombstone (`deletedAt` set, text cleared) so the mirror's delta pull can carry the deletion.

export const COMMENT_LIMITS = {
  textMax: 500,
} as const;

export const COMMENT_MESSAGES = {
  textRequired: 'Comment is required',
  textMax: 'Comment must be 500 characters or less',
  commentRequired: 'Comment is required',
} as const;

/** POST /bets/{id}/comments: the text, trimmed, 1–500 characters (line breaks allowed). */
export type CreateCommentRequest = { text: string };

export type Comment = {
  id: number;
  betId: number;
  groupId: number;
  userId: number;
  /** The author's display name now (also after they left the group). */
  userName: string;
  /** Empty once deleted. */
  text: string;
  createdAt: string;
  /** Set once the author or a group admin deleted it. */
  deletedAt: string | null;
};

/** A comment with the version of its row (mirror.ts): the mirror and the socket events carry it. */
export interface VersionedComment extends Comment {
  version: number;
}

/**
 * Oldest first, newest last (the thread reads down). A comment the server has not numbered yet
 * (a temporary, negative id: written on this device, on its way) comes after every numbered one,
 * since the server stamps its time when it arrives. Ids break ties of one instant.
 */
export function compareComments(
  a: Pick<Comment, 'createdAt' | 'id'>,
  b: Pick<Comment, 'createdAt' | 'id'>,
): number {
  const isWaiting = (id: number) => (id < 0 ? 1 : 0);
  if (isWaiting(a.id) !== isWaiting(b.id)) return isWaiting(a.id) - isWaiting(b.id);
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return Math.abs(a.id) - Math.abs(b.id);
}

/**
 * Whether the viewer may delete the comment (the thread's Delete): a live comment, and the
 * group policy's rule (its author while a member, or a current admin), as the server asks it.
 */
export function canDeleteComment(
  comment: Pick<Comment, 'userId' | 'deletedAt'>,
  viewer: GroupViewer & { userId: number },
): boolean {
  return (
    comment.deletedAt === null &&
    deleteCommentRefusal(viewer, comment.userId === viewer.userId) === null
  );
}

const AGE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday"; a date beyond a week. Pure: the clock is passed in. */
export function formatCommentAge(createdAt: string, now: number, locale = 'en'): string {
  const at = Date.parse(createdAt);
  const elapsed = Math.max(0, now - at);
  if (!Number.isFinite(at) || elapsed < 60_000) return 'just now';
  if (elapsed >= 7 * 86_400_000)
    return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(at);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const [unit, ms] = AGE_UNITS.find(([, size]) => elapsed >= size)!;
  return format.format(-Math.floor(elapsed / ms), unit);
}
