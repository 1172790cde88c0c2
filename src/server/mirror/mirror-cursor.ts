import { MAX_ID } from '../../domain/ids';
import { isSnapshot } from '../db/changes';

// The mirror's cursor, opaque to the client: whose it is, the snapshot its pull read under, and
// the groups the device holds. Nothing in it is secret or trusted: a forged cursor can only make
// the server resend (or not resend) the caller's own groups, which it checks against the
// caller's memberships on every pull. Whatever reaches SQL from it is checked here in full
// (the snapshot as PostgreSQL parses it, ids within integer), so a malformed cursor starts over
// rather than failing the pull's statement.

export interface MirrorCursor {
  userId: number;
  snapshot: string;
  groupIds: number[];
}

const MAX_GROUPS = 10_000;

export function encodeCursor(cursor: MirrorCursor): string {
  return Buffer.from(
    JSON.stringify({ u: cursor.userId, s: cursor.snapshot, g: cursor.groupIds }),
  ).toString('base64url');
}

/** The cursor, or null when it is not one of ours (the pull then starts from nothing). */
export function decodeCursor(text: string): MirrorCursor | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { u, s, g } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(u) || typeof s !== 'string' || !isSnapshot(s)) return null;
  if (
    !Array.isArray(g) ||
    g.length > MAX_GROUPS ||
    !g.every((id) => Number.isSafeInteger(id) && (id as number) > 0 && (id as number) <= MAX_ID)
  )
    return null;
  return { userId: u as number, snapshot: s, groupIds: g as number[] };
}
