import { z } from '../domain/schemas/zod';

// The RATE_LIMIT_* settings (README, Configuration): requests per minute, each with a default.

/** An empty variable counts as unset (`FOO=` in an env file). */
export const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const perMinute = (fallback: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').default(fallback),
  );

/** The variables, as config.ts's schema reads them. */
export const rateLimitVariables = {
  RATE_LIMIT_LOGIN_PER_IP: perMinute(30),
  RATE_LIMIT_LOGIN_PER_EMAIL: perMinute(10),
  RATE_LIMIT_GUEST_PER_IP: perMinute(30),
  RATE_LIMIT_FORGOT_PER_IP: perMinute(10),
  RATE_LIMIT_REGISTER_PER_IP: perMinute(10),
  RATE_LIMIT_REFRESH_PER_IP: perMinute(120),
  RATE_LIMIT_RESET_PER_IP: perMinute(10),
  RATE_LIMIT_JOIN_PRIVATE_PER_USER: perMinute(10),
  RATE_LIMIT_JOIN_PRIVATE_PER_IP: perMinute(60),
  RATE_LIMIT_WRITES_PER_USER: perMinute(120),
  RATE_LIMIT_COMMENTS_PER_USER: perMinute(10),
  RATE_LIMIT_TRANSFER_PER_USER: perMinute(5),
  RATE_LIMIT_TRANSFER_PER_IP: perMinute(20),
  RATE_LIMIT_API_TOKEN_PER_TOKEN: perMinute(300),
  RATE_LIMIT_API_TOKEN_PER_USER: perMinute(600),
};

type RateLimitEnv = { [K in keyof typeof rateLimitVariables]: number };

export interface RateLimits {
  /** Requests allowed per window; the window is one minute unless a test shortens it. */
  loginPerIp: number;
  loginPerEmail: number;
  guestPerIp: number;
  forgotPasswordPerIp: number;
  /** Full-account sign-ups (each hashes a password). */
  registerPerIp: number;
  refreshPerIp: number;
  /** Password resets (each hashes a password once the token checks out). */
  resetPasswordPerIp: number;
  /** Joins by id and invite code: guessing a code takes many. */
  joinPrivatePerUser: number;
  joinPrivatePerIp: number;
  /** Every signed-in write (POST, PUT, PATCH, DELETE), per user. */
  writesPerUser: number;
  /** Comments posted on bets, per user (on top of writesPerUser). */
  commentsPerUser: number;
  /** Move-to-another-device codes made, per user. */
  transferCodesPerUser: number;
  /** Move-to-another-device codes looked up or redeemed, per IP (each code is 256 bits anyway). */
  transferTriesPerIp: number;
  /** Requests made with a personal API token, per token and per user across their tokens. */
  tokenRequestsPerToken: number;
  tokenRequestsPerUser: number;
  windowMs: number;
}

export function rateLimitsFrom(e: RateLimitEnv): RateLimits {
  return {
    loginPerIp: e.RATE_LIMIT_LOGIN_PER_IP,
    loginPerEmail: e.RATE_LIMIT_LOGIN_PER_EMAIL,
    guestPerIp: e.RATE_LIMIT_GUEST_PER_IP,
    forgotPasswordPerIp: e.RATE_LIMIT_FORGOT_PER_IP,
    registerPerIp: e.RATE_LIMIT_REGISTER_PER_IP,
    refreshPerIp: e.RATE_LIMIT_REFRESH_PER_IP,
    resetPasswordPerIp: e.RATE_LIMIT_RESET_PER_IP,
    joinPrivatePerUser: e.RATE_LIMIT_JOIN_PRIVATE_PER_USER,
    joinPrivatePerIp: e.RATE_LIMIT_JOIN_PRIVATE_PER_IP,
    writesPerUser: e.RATE_LIMIT_WRITES_PER_USER,
    commentsPerUser: e.RATE_LIMIT_COMMENTS_PER_USER,
    transferCodesPerUser: e.RATE_LIMIT_TRANSFER_PER_USER,
    transferTriesPerIp: e.RATE_LIMIT_TRANSFER_PER_IP,
    tokenRequestsPerToken: e.RATE_LIMIT_API_TOKEN_PER_TOKEN,
    tokenRequestsPerUser: e.RATE_LIMIT_API_TOKEN_PER_USER,
    windowMs: 60_000,
  };
}
