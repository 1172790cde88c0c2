import type { User, UserBubble } from '../../domain/auth';
import type { UserRow } from '../db/schema';

// Never send a database row (docs/conventions.md): these shape users into the domain schemas.

/** The full user (docs/accounts-and-shell.md §3). A guest has empty email, username and names, and no roles. */
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

/** A user bubble; the email only for the user themself (docs/security.md): nobody else ever reads it. */
export function presentUserBubble(row: UserRow, viewerId: number): UserBubble {
  return {
    id: row.id,
    displayName: row.displayName,
    username: row.username ?? '',
    email: row.id === viewerId ? (row.email ?? '') : '',
  };
}
