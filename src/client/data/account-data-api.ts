import {
  accountExportFileName,
  type AccountExport,
  type DeleteAccountRequest,
} from '../../domain/account-data';
import type { MessageResponse } from '../../domain/auth';
import { AUTH_BASE } from '../../domain/constants';
import { api, sessionStore } from './session';

// The player's own data as actions the profile calls: the export, and the
// account deletion, which then signs this device out and clears its local data.

/** GET /auth/users/me/export: the document and the name to save it under. */
export async function fetchAccountExport(): Promise<{ fileName: string; document: AccountExport }> {
  const document = await api.get<AccountExport>(`${AUTH_BASE}/users/me/export`);
  return {
    fileName: accountExportFileName(document.profile.id, new Date(document.exportedAt)),
    document,
  };
}

/**
 * DELETE /auth/users/me, then the sign-out every logout takes (the mirror, the outbox and the
 * stored session are cleared), marked 'deleted' so the app lands on the landing page.
 */
export async function deleteAccount(request: DeleteAccountRequest): Promise<void> {
  await api.request<MessageResponse>(`${AUTH_BASE}/users/me`, { method: 'DELETE', body: request });
  await sessionStore.logout('deleted');
}
