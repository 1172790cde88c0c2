import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration from the schema; migrations are applied at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/server/db/schema.ts',
    './src/server/db/accounts-schema.ts',
    './src/server/db/groups-schema.ts',
    './src/server/db/ledger-schema.ts',
    './src/server/db/seasons-schema.ts',
    './src/server/db/bets-schema.ts',
    './src/server/db/idempotency-schema.ts',
    './src/server/db/notifications-schema.ts',
    './src/server/db/sync-schema.ts',
    './src/server/db/share-schema.ts',
    './src/server/db/rounds-schema.ts',
    './src/server/db/repeat-schema.ts',
    './src/server/db/webhooks-schema.ts',
  ],
  out: './src/server/db/migrations',
});
