import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type {
  BetHistoryEntry,
  BetHistoryKind,
  VersionedBetHistoryEntry,
} from '../../domain/fair-resolution';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { betHistory, users, type BetHistoryRow, type BetRow } from '../db/schema';
import type { MirrorScope } from '../groups/group-mirror';
import { isoTime } from '../iso-time';

// A bet's history: one row per thing that happened to it, written in the same
// transaction as the change itself (bets.service.ts, settlement.service.ts), never updated.
// Mirrored like the comments: a group the device does not hold comes whole, one it holds with
// the rows written since the cursor.

export interface HistoryInput {
  kind: BetHistoryKind;
  /** Null: the bet did it by itself (the expiry job). */
  actorId: number | null;
  at: Date;
  correctAnswer?: string | null;
  reason?: string | null;
}

/** Writes one line of the bet's history; answers its id (the inbox keys its entries by it). */
export async function recordBetHistory(
  tx: Executor,
  bet: Pick<BetRow, 'id' | 'groupId'>,
  input: HistoryInput,
): Promise<number> {
  const [row] = await tx
    .insert(betHistory)
    .values({
      betId: bet.id,
      groupId: bet.groupId,
      kind: input.kind,
      actorId: input.actorId,
      correctAnswer: input.correctAnswer ?? null,
      reason: input.reason ?? null,
      createdAt: input.at,
    })
    .returning({ id: betHistory.id });
  return row!.id;
}

function presentHistory(row: BetHistoryRow, actorName: string | null): BetHistoryEntry {
  return {
    id: row.id,
    betId: row.betId,
    groupId: row.groupId,
    kind: row.kind,
    actorId: row.actorId,
    actorName,
    correctAnswer: row.correctAnswer,
    reason: row.reason,
    createdAt: isoTime(row.createdAt),
  };
}

const withActor = (tx: Executor) =>
  tx
    .select({ entry: betHistory, actorName: users.displayName })
    .from(betHistory)
    .leftJoin(users, eq(users.id, betHistory.actorId));

/** A bet's history, oldest first. */
export async function readBetHistory(tx: Executor, betId: number): Promise<BetHistoryEntry[]> {
  const rows = await withActor(tx).where(eq(betHistory.betId, betId)).orderBy(asc(betHistory.id));
  return rows.map((row) => presentHistory(row.entry, row.actorName));
}

export async function readHistoryMirror(
  tx: Executor,
  { fullIds, deltaIds, snapshot }: MirrorScope,
): Promise<{ betHistory: VersionedBetHistoryEntry[] }> {
  const whole = fullIds.length > 0 ? inArray(betHistory.groupId, [...fullIds]) : undefined;
  const changed =
    deltaIds.length > 0
      ? and(
          inArray(betHistory.groupId, [...deltaIds]),
          changedSince(betHistory.changeTxid, snapshot),
        )
      : undefined;
  if (!whole && !changed) return { betHistory: [] };
  const rows = await withActor(tx).where(or(whole, changed)).orderBy(asc(betHistory.id));
  return {
    betHistory: rows.map((row) => ({
      ...presentHistory(row.entry, row.actorName),
      version: row.entry.version,
    })),
  };
}
