import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { jwtVerify, SignJWT } from 'jose';
import { TOKEN_LIFETIME } from '../../domain/constants';

// The credentials of ARCHITECTURE.md §6: argon2id password hashes, 15-minute HS256 access
// tokens (claims sub, app, tmp), and opaque random tokens (refresh, password reset) that are
// stored only as SHA-256 hashes.

/** What an access token says about its bearer; later features read it from request.user. */
export interface AuthUser {
  id: number;
  appName: string;
  isTemporary: boolean;
}

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against a fixed hash when the account does not exist keeps a login for an unknown
// email as slow as one with a wrong password, so timing does not reveal who has an account.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(user: AuthUser): Promise<string> {
    return new SignJWT({ app: user.appName, tmp: user.isTemporary })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      // A unique id, so two tokens issued in the same second still differ.
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_LIFETIME.accessSeconds}s`)
      .sign(this.key);
  }

  /** The bearer, or undefined for a token that is malformed, forged or expired. */
  async verify(token: string): Promise<AuthUser | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const id = Number(payload.sub);
      if (!Number.isSafeInteger(id) || id <= 0 || typeof payload.app !== 'string' || typeof payload.tmp !== 'boolean') return undefined;
      return { id, appName: payload.app, isTemporary: payload.tmp };
    } catch {
      return undefined;
    }
  }
}

/** 32 random bytes, base64url: the opaque refresh and reset tokens. */
export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newTokenFamily(): string {
  return randomUUID();
}
