import type { User, UserBubble } from '../../domain/auth';
import type { UserRow } from '../db/schema';

// Never send a database row (CONVENTIONS.md): these shape users into the domain schemas.

/** The full user (spec 01 §3). A guest has empty email, username and names, and no roles. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    appName: row.appName,
    email: row.email ?? '',
    username: row.username ?? '',
    firstName: row.firstName,
    lastName: row.lastName,
    displayName: row.displayName,
    isTemporary: row.isTemporary,
    roles: row.roles,
    profilePictureUrl: row.profilePictureUrl,
  };
}

/** A user bubble; the email only when the viewer may see it (themself, or a fellow member of a group). */
export function presentUserBubble(row: UserRow, canSeeEmail: boolean): UserBubble {
  return {
    id: row.id,
    displayName: row.displayName,
    username: row.username ?? '',
    email: canSeeEmail ? (row.email ?? '') : '',
  };
}
