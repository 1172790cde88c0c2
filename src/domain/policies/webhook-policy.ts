import { WEBHOOK_LIMITS } from '../webhooks';
import { manageGroupRefusal, type GroupRoster, type ManageGroupRefusal } from './group-policy';

// Who may see and change a group's webhooks: its current admins, as for the group's other
// settings (a hook's URL and secret are capabilities: a member who is not an admin never sees
// them). A group keeps at most WEBHOOK_LIMITS.perGroup hooks. Asked by the server inside the
// write's transaction, after the group's lock (groups/group-access.ts 'manageWebhooks'), and by
// the Settings screen before it offers the section and its Add.

/** Null when `viewerId` may list, add, change, rotate, resend or delete the group's hooks. */
export function manageWebhooksRefusal(
  roster: GroupRoster,
  viewerId: number,
): ManageGroupRefusal | null {
  return manageGroupRefusal(roster, viewerId);
}

export function canManageWebhooks(roster: GroupRoster, viewerId: number): boolean {
  return manageWebhooksRefusal(roster, viewerId) === null;
}

/** Null when a group that has `hookCount` hooks may get one more, else why not. */
export function addWebhookRefusal(hookCount: number): 'webhook_limit' | null {
  return hookCount >= WEBHOOK_LIMITS.perGroup ? 'webhook_limit' : null;
}

export function canAddWebhook(hookCount: number): boolean {
  return addWebhookRefusal(hookCount) === null;
}
