import type { OutboxEntry } from '../data/db';
import { APP_MUTATORS } from '../data/local-data';
import { mutatorOf, textsOf, type MutatorRegistry } from '../data/mutators';

// How a write is named to its player, in their own words: the sync status sheet's rows and
// the writes held from a session that ended.

const MUTATORS: MutatorRegistry = Object.fromEntries(
  APP_MUTATORS.map((mutator) => [mutator.name, mutator]),
);

/** "Wager · 4 points on yes": what the write is, in the player's words. */
export function describeWrite(entry: Pick<OutboxEntry, 'mutator' | 'args'>): string {
  const mutator = mutatorOf(MUTATORS, entry.mutator);
  if (!mutator) return 'Change';
  const { label } = textsOf(mutator, entry.args as never);
  const detail = mutator.describe?.(entry.args as never);
  return detail ? `${label} · ${detail}` : label;
}
