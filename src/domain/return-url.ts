import { DEFAULT_RETURN_URL } from './constants';

// Where the login page goes after signing in (spec 01 §2): the returnUrl query parameter if
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
