import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration from the schema; migrations are applied at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/server/db/schema.ts',
    './src/server/db/share-schema.ts',
    './src/server/db/rounds-schema.ts',
    './src/server/db/repeat-schema.ts',
  ],
  out: './src/server/db/migrations',
});
