import { DEFAULT_RETURN_URL } from './constants';
import { parseInviteLink, type InviteLinkParts } from './groups';

// Where the login page goes after signing in (docs/accounts-and-shell.md §2): the returnUrl query parameter if
// present; else with a groupId, /group/{groupId}/invite?inviteCode={inviteCode} when an
// invite code is present, otherwise /group/{groupId}; else /dashboard.

export interface ReturnUrlParams {
  returnUrl?: string | null;
  groupId?: string | null;
  inviteCode?: string | null;
}

/**
 * Only a path inside this app counts as a returnUrl: "https://evil.example" or
 * "//evil.example" would turn the login page into an open redirect, so they are ignored.
 */
function isInternalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

export function computeReturnUrl({ returnUrl, groupId, inviteCode }: ReturnUrlParams): string {
  if (returnUrl && isInternalPath(returnUrl)) return returnUrl;
  if (groupId) {
    const group = `/group/${encodeURIComponent(groupId)}`;
    return inviteCode ? `${group}/invite?inviteCode=${encodeURIComponent(inviteCode)}` : group;
  }
  return DEFAULT_RETURN_URL;
}

/** Reads the three parameters from a query string such as location.search. */
export function returnUrlFromSearch(search: string): string {
  const params = new URLSearchParams(search);
  return computeReturnUrl({
    returnUrl: params.get('returnUrl'),
    groupId: params.get('groupId'),
    inviteCode: params.get('inviteCode'),
  });
}

/**
 * "?returnUrl=…" when this visit has somewhere to go after signing in, else "". Every account
 * screen puts it on its links to the others (sign up, guest, forgot password and back), so an
 * invite link survives whichever way in the friend takes.
 */
export function returnQuery(search: string): string {
  const target = returnUrlFromSearch(search);
  return target === DEFAULT_RETURN_URL ? '' : `?returnUrl=${encodeURIComponent(target)}`;
}

/** The invite (group id and code) a visit will land on after signing in, or null. */
export function pendingInvite(search: string): Required<InviteLinkParts> | null {
  const invite = parseInviteLink(returnUrlFromSearch(search));
  return invite?.inviteCode ? { groupId: invite.groupId, inviteCode: invite.inviteCode } : null;
}

/**
 * Whether the visit carries an invite link cut short on its way (a chat's preview, a copy that
 * missed the end): the invite path whose query stops inside "inviteCode=" or right after it
 * ("/group/7?inviteCo", "/group/7?inviteCode="), or "/group/7/invite" without a code. A plain
 * "/group/7" is a public group's link, whole. A code that is there but wrong or shortened is
 * the server's to say (the invite preview, invite-note.tsx).
 */
export function isCutInviteLink(search: string): boolean {
  const target = returnUrlFromSearch(search);
  const invite = parseInviteLink(target);
  if (!invite || invite.inviteCode) return false;
  const [path = '', query] = target.split('?', 2);
  if (query === undefined) return /\/invite\/?$/.test(path);
  return (
    (query !== '' && CODE_PARAMETER.startsWith(query)) ||
    new URLSearchParams(query).has('inviteCode')
  );
}

const CODE_PARAMETER = 'inviteCode=';
