import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';

// Secrets that are not configured are generated once and kept in DATA_DIR, so sessions
// survive a restart with no configuration (docs/architecture.md §3). Each secret is generated only
// when it is asked for, i.e. when its variable is unset, and kept in the same file.

export interface GeneratedSecrets {
  jwtSecret: string;
}

/** The web push identity (VAPID, RFC 8292): base64url P-256 keys, as web-push makes them. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

type SecretsFile = Partial<GeneratedSecrets> & { vapidKeys?: Partial<VapidKeys> };

const FILE_NAME = 'secrets.json';

function readSecrets(file: string): SecretsFile {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SecretsFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads one entry of DATA_DIR/secrets.json, generating and saving it (mode 0600) when missing or unusable. */
function loadOrCreateEntry<K extends keyof SecretsFile>(
  dataDir: string,
  key: K,
  isUsable: (value: SecretsFile[K]) => boolean,
  generate: () => NonNullable<SecretsFile[K]>,
): NonNullable<SecretsFile[K]> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE_NAME);
  const existing = readSecrets(file);
  if (isUsable(existing[key])) return existing[key]!;
  const value = generate();
  writeFileSync(file, `${JSON.stringify({ ...existing, [key]: value }, null, 2)}\n`, {
    mode: 0o600,
  });
  return value;
}

/** Reads DATA_DIR/secrets.json, generating and saving (mode 0600) whatever is missing. */
export function loadOrCreateSecrets(dataDir: string): GeneratedSecrets {
  const jwtSecret = loadOrCreateEntry(
    dataDir,
    'jwtSecret',
    (value) => typeof value === 'string' && value.length >= 32,
    () => randomBytes(48).toString('base64url'),
  );
  return { jwtSecret };
}

/**
 * The VAPID keys kept in DATA_DIR, generated on first use. Browsers tie a subscription to the
 * public key, so changing it would silently cut every device off: it is made once and kept.
 * Several instances must share one pair, so they set VAPID_* instead (docs/architecture.md §3).
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const keys = loadOrCreateEntry(
    dataDir,
    'vapidKeys',
    (value) => typeof value?.publicKey === 'string' && typeof value.privateKey === 'string',
    () => webpush.generateVAPIDKeys(),
  );
  return { publicKey: keys.publicKey!, privateKey: keys.privateKey! };
}

/** DATA_DIR/secrets.json as it is (a backup carries it), or undefined when there is none. */
export function readSecretsFile(dataDir: string): Record<string, unknown> | undefined {
  const file = path.join(dataDir, FILE_NAME);
  return existsSync(file) ? (readSecrets(file) as Record<string, unknown>) : undefined;
}

/**
 * A restore's secrets: written to DATA_DIR/secrets.json (0600) when it has none; an existing one
 * is kept. Says which.
 */
export function restoreSecretsFile(
  dataDir: string,
  secrets: Record<string, unknown>,
): 'written' | 'same' | 'kept' {
  const file = path.join(dataDir, FILE_NAME);
  if (existsSync(file))
    return JSON.stringify(readSecrets(file)) === JSON.stringify(secrets) ? 'same' : 'kept';
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return 'written';
}
