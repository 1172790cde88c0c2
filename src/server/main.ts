import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { connectDatabase } from './db/connect';

// Starts Hunch: config, database (migrated), the app on PORT; stops cleanly on SIGTERM/SIGINT.

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const config = readConfig();
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  await database.migrate();
  // This file is src/server/main.ts under tsx and dist/server/main.js when bundled: both are
  // two levels below the project root, where dist/client is.
  const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
  const app = await buildApp({ config, database, clientDir });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting and finish requests in flight; then close the database.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/pglite`;
  app.log.info(`Hunch is ready at ${config.publicUrl} (database: ${where})`);
}

main().catch((error: unknown) => {
  console.error('Hunch could not start:', error);
  process.exit(1);
});
