// Ids are positive integers (docs/architecture.md §4). They arrive as JSON numbers in bodies and as
// numeric strings in route params, query strings and invite links (docs/groups-and-bets.md §3 "Invite
// reference": groupId is a string there), so both spellings parse to one number.

/** The largest id: ids are PostgreSQL `integer` columns (2^31 − 1); a bigger one would overflow them. */
export const MAX_ID = 2_147_483_647;
