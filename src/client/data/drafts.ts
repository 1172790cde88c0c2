// What a player had half written, kept on this device so that Back, a closed sheet or a
// reload loses nothing: the bet form, a comment, a wager's answer and amount. Per group, in
// localStorage (device-only UI state lives there, as the active group does), one key each:
// `draft:<groupId>:bet`, `draft:<groupId>:comment:<betId>`, `draft:<groupId>:wager:<betId>`.
// A sent or discarded draft is removed; the end of a session removes them all (session-end.ts).

const PREFIX = 'draft:';

/** Which form a draft belongs to, within its group. */
export type DraftForm = 'bet' | `comment:${number}` | `wager:${number}`;

const keyOf = (groupId: number, form: DraftForm) => `${PREFIX}${groupId}:${form}`;

/** localStorage where there is one; a browser that refuses it keeps no drafts. */
function deviceStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The draft kept for this form, if any. */
export function readDraft<T>(groupId: number, form: DraftForm): T | undefined {
  const raw = deviceStorage()?.getItem(keyOf(groupId, form));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** Keeps what the form holds now, replacing the draft before. */
export function saveDraft(groupId: number, form: DraftForm, value: unknown): void {
  try {
    deviceStorage()?.setItem(keyOf(groupId, form), JSON.stringify(value));
  } catch {
    // A full storage keeps the draft before: the form itself still holds the text.
  }
}

/** The draft was sent or discarded. */
export function forgetDraft(groupId: number, form: DraftForm): void {
  deviceStorage()?.removeItem(keyOf(groupId, form));
}

/** Every draft on this device: a session ended, and the next person must not find them. */
export function forgetAllDrafts(storage: Storage | null): void {
  if (!storage) return;
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
  for (const key of keys) if (key?.startsWith(PREFIX)) storage.removeItem(key);
}
