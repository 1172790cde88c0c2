import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { GroupScreen } from './group-screen';

// docs/groups-and-bets.md §2 "/group/{id}" with an optional ?inviteCode (the share link of a private group).
export function GroupDetailsPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const groupId = Number(id);
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return <Navigate to="/group" replace />;
  const inviteCode = search.get('inviteCode')?.trim() || undefined;
  return <GroupScreen key={groupId} groupId={groupId} inviteCode={inviteCode} />;
}

/**
 * /group/{id}/invite?inviteCode= (where docs/accounts-and-shell.md §2's login return rule points):
 * the same link as /group/{id}?inviteCode=.
 */
export function GroupInviteRedirect() {
  const { id } = useParams();
  const [search] = useSearchParams();
  return <Navigate to={`/group/${encodeURIComponent(id ?? '')}?${search.toString()}`} replace />;
}
