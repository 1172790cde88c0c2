import { MAX_ID } from '../../domain/ids';
import { isSnapshot } from '../db/changes';
import type { ChangePosition } from './change-watermarks';

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
  /**
   * Where the answering instance's change notifications were when it read (change-watermarks.ts),
   * only when `groupIds` are all the caller's groups: another instance ignores it.
   */
  position?: ChangePosition;
}

const MAX_GROUPS = 10_000;

export function encodeCursor(cursor: MirrorCursor): string {
  return Buffer.from(
    JSON.stringify({
      u: cursor.userId,
      s: cursor.snapshot,
      g: cursor.groupIds,
      ...(cursor.position && { p: [cursor.position.epoch, cursor.position.seq] }),
    }),
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
  const { u, s, g, p } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(u) || typeof s !== 'string' || !isSnapshot(s)) return null;
  if (
    !Array.isArray(g) ||
    g.length > MAX_GROUPS ||
    !g.every((id) => Number.isSafeInteger(id) && (id as number) > 0 && (id as number) <= MAX_ID)
  )
    return null;
  const position = decodePosition(p);
  if (position === null) return null;
  return {
    userId: u as number,
    snapshot: s,
    groupIds: g as number[],
    ...(position && { position }),
  };
}

/** undefined when absent, null when malformed. */
function decodePosition(value: unknown): ChangePosition | null | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [epoch, seq] = value as unknown[];
  if (typeof epoch !== 'string' || epoch.length > 64) return null;
  if (!Number.isSafeInteger(seq) || (seq as number) < 0) return null;
  return { epoch, seq: seq as number };
}
