// One schema for PGlite and PostgreSQL (docs/architecture.md §3, §4). Ids are integers.
// Each feature's tables sit in a `<feature>-schema.ts` beside this file, named in
// `drizzle.config.ts`; a new migration comes from `npm run db:generate`. This file re-exports
// the core tables, so the app imports them from one place and `connect.ts` hands them to Drizzle.

export * from './accounts-schema';
export * from './groups-schema';
export * from './ledger-schema';
export * from './seasons-schema';
export * from './bets-schema';
export * from './idempotency-schema';
export * from './notifications-schema';
export * from './sync-schema';
