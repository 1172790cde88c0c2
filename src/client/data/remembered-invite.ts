import { STORAGE_KEYS, TOKEN_LIFETIME } from '../../domain/constants';
import { pendingInvite, returnQuery } from '../../domain/return-url';

// An invite link's way into its group, across the "Forgot password" mail: the reset link
// carries only its token (never the invite), so this browser keeps the invite while that link
// lives, and the reset page takes it back up. Another browser simply lands on /login.

interface Kept {
  returnUrl: string;
  at: number;
}

const LIFETIME_MS = TOKEN_LIFETIME.passwordResetSeconds * 1000;

export function createRememberedInvite(storage: Storage | null) {
  return {
    /** On sending the reset mail from `search` (a screen's location.search): keeps its invite, or forgets an older one. */
    keep(search: string, now = Date.now()) {
      if (!storage) return;
      const query = returnQuery(search);
      if (pendingInvite(query) === null) {
        storage.removeItem(STORAGE_KEYS.pendingInvite);
        return;
      }
      const returnUrl = new URLSearchParams(query).get('returnUrl')!;
      storage.setItem(STORAGE_KEYS.pendingInvite, JSON.stringify({ returnUrl, at: now }));
    },

    /** "?returnUrl=…" leading to the kept invite while the reset link would still work, else "". */
    query(now = Date.now()): string {
      let kept: Partial<Kept> | null;
      try {
        kept = JSON.parse(storage?.getItem(STORAGE_KEYS.pendingInvite) ?? 'null') as Partial<Kept>;
      } catch {
        return '';
      }
      if (typeof kept?.returnUrl !== 'string' || typeof kept.at !== 'number') return '';
      if (!(now < kept.at + LIFETIME_MS)) return '';
      const query = returnQuery(`?returnUrl=${encodeURIComponent(kept.returnUrl)}`);
      return pendingInvite(query) === null ? '' : query;
    },

    forget() {
      storage?.removeItem(STORAGE_KEYS.pendingInvite);
    },
  };
}

export const rememberedInvite = createRememberedInvite(
  typeof localStorage === 'undefined' ? null : localStorage,
);
