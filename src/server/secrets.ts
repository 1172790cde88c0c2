import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Secrets that are not configured are generated once and kept in DATA_DIR, so sessions
// survive a restart with no configuration (ARCHITECTURE.md §3). Later features (VAPID keys)
// add their own entries to the same file.

export interface GeneratedSecrets {
  jwtSecret: string;
}

const FILE_NAME = 'secrets.json';

function readSecrets(file: string): Partial<GeneratedSecrets> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<GeneratedSecrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads DATA_DIR/secrets.json, generating and saving (mode 0600) whatever is missing. */
export function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE_NAME);
  const existing = readSecrets(file);
  if (typeof existing.jwtSecret === 'string' && existing.jwtSecret.length >= 32) {
    return { jwtSecret: existing.jwtSecret };
  }
  const secrets: GeneratedSecrets = { ...existing, jwtSecret: randomBytes(48).toString('base64url') };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
