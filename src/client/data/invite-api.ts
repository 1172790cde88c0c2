import { API_BASE } from '../../domain/constants';
import type { InvitePreview } from '../../domain/groups';
import { api } from './session';

// What an invite link tells a visitor before they sign in: who invited them to which group.
// The server answers only for the right code; the code travels in the body, not the URL.

export function previewInvite(groupId: number, inviteCode: string): Promise<InvitePreview> {
  return api.post<InvitePreview>(
    `${API_BASE}/invites/preview`,
    { groupId, inviteCode },
    { auth: false },
  );
}
