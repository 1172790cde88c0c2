import {
  createHash,
  createHmac,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
  createSecretKey,
} from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { SignJWT } from 'jose';
import type { ApiTokenScope } from '../../domain/api-tokens';
import { TOKEN_LIFETIME } from '../../domain/constants';

// The credentials of docs/architecture.md §6: argon2id password hashes, 15-minute HS256 access
// tokens (claims sub, app, tmp), and opaque random tokens (refresh, password reset) that are
// stored only as SHA-256 hashes.

/** What an access token says about its bearer; later features read it from request.user. */
export interface AuthUser {
  id: number;
  appName: string;
  isTemporary: boolean;
  /**
   * The refresh token family the token was issued with (claim `fam`): the token passes, on the
   * API and sockets, only while that session lives (session-liveness.ts). Every token the app
   * signs carries it; one without it (signed before the claim existed) is refused.
   */
  sessionFamily?: string;
  /**
   * Set when the bearer is a personal API token rather than an access token (api-token-auth.ts):
   * which token, and what its scopes let it do. It passes while the token is not revoked.
   */
  apiToken?: { id: number; scopes: readonly ApiTokenScope[]; expiresAt: Date | null };
}

/** argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against a fixed hash when the account does not exist keeps a login for an unknown
// email as slow as one with a wrong password, so timing does not reveal who has an account.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly hmacKey: KeyObject;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.hmacKey = createSecretKey(this.key);
  }

  sign(user: AuthUser): Promise<string> {
    return (
      new SignJWT({
        app: user.appName,
        tmp: user.isTemporary,
        ...(user.sessionFamily ? { fam: user.sessionFamily } : {}),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(user.id))
        // A unique id, so two tokens issued in the same second still differ.
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_LIFETIME.accessSeconds}s`)
        .sign(this.key)
    );
  }

  /**
   * The bearer, or undefined for a token that is malformed, forged or expired. Every signed-in
   * request comes through here, so it is checked synchronously with node:crypto (a few µs)
   * instead of jose's WebCrypto path (a key import and an async job per call), with jose's
   * rules for what we issue: a compact JWS whose header is HS256 with no `crit`, a signature
   * equal to ours (constant-time), and numeric `exp` in the future, `nbf` (if any) not ahead.
   */
  async verify(token: string): Promise<AuthUser | undefined> {
    const known = this.verified.get(token);
    if (known) {
      // The very string verified before (its signature included): only the clock can have changed.
      const now = Math.floor(Date.now() / 1000);
      if (known.exp > now && (known.nbf === undefined || known.nbf <= now)) return known.user;
      this.verified.delete(token);
      return undefined;
    }
    return this.verifySync(token);
  }

  /** The bearer and the token's expiry (seconds since the epoch): a socket is closed when its token expires. */
  async verifyWithExpiry(token: string): Promise<{ user: AuthUser; exp: number } | undefined> {
    const user = await this.verify(token);
    const entry = user ? this.verified.get(token) : undefined;
    return user && entry ? { user, exp: entry.exp } : undefined;
  }

  /**
   * Tokens already verified, with their time bounds: a client sends the same token for up to
   * 15 minutes, and the HMAC, base64 and JSON work was a fifth of a signed-in call that does no
   * database work. Bounded (oldest first out); only tokens that passed every check get in.
   */
  private readonly verified = new Map<
    string,
    { user: AuthUser; exp: number; nbf: number | undefined }
  >();

  private remember(
    token: string,
    entry: { user: AuthUser; exp: number; nbf: number | undefined },
  ): AuthUser {
    if (this.verified.size >= VERIFIED_CACHE_SIZE)
      this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, entry);
    return entry.user;
  }

  private verifySync(token: string): AuthUser | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
    const expected = createHmac('sha256', this.hmacKey)
      .update(`${encodedHeader}.${encodedPayload}`)
      .digest('base64url');
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
      return undefined;
    const header = decodeJson(encodedHeader);
    if (!header || header.alg !== 'HS256' || header.crit !== undefined || header.b64 !== undefined)
      return undefined;
    const payload = decodeJson(encodedPayload);
    if (!payload) return undefined;
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== 'number' || payload.exp <= now) return undefined;
    if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now))
      return undefined;
    if (payload.iat !== undefined && typeof payload.iat !== 'number') return undefined;
    const id = Number(payload.sub);
    if (
      typeof payload.sub !== 'string' ||
      !Number.isSafeInteger(id) ||
      id <= 0 ||
      typeof payload.app !== 'string' ||
      typeof payload.tmp !== 'boolean'
    )
      return undefined;
    if (payload.fam !== undefined && typeof payload.fam !== 'string') return undefined;
    const user: AuthUser = {
      id,
      appName: payload.app,
      isTemporary: payload.tmp,
      ...(payload.fam ? { sessionFamily: payload.fam } : {}),
    };
    return this.remember(token, { user, exp: payload.exp, nbf: payload.nbf as number | undefined });
  }
}

/** How many verified access tokens are kept (about 4 MB at most). */
const VERIFIED_CACHE_SIZE = 10_000;

/** A base64url JSON object, or undefined when it is anything else. */
function decodeJson(encoded: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
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
