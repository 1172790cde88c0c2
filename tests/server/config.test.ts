import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('loadConfig', () => {
  it('gives every setting a working default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      jwtSecret: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      trustProxy: false,
      vapid: { publicKey: undefined, privateKey: undefined, subject: undefined },
      rateLimits: {
        loginPerIp: 30,
        loginPerEmail: 10,
        guestPerIp: 30,
        forgotPasswordPerIp: 10,
        windowMs: 60_000,
      },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads each variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/hunch-data',
      DATABASE_URL: 'postgres://u:p@db:5432/hunch',
      REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: 's'.repeat(40),
      VAPID_PUBLIC_KEY: 'pub',
      VAPID_PRIVATE_KEY: 'priv',
      VAPID_SUBJECT: 'mailto:admin@example.com',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://hunch.example.com/',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      RATE_LIMIT_LOGIN_PER_IP: '5',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/tmp/hunch-data',
      databaseUrl: 'postgres://u:p@db:5432/hunch',
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtp://mail:25',
      publicUrl: 'https://hunch.example.com',
      logLevel: 'warn',
      trustProxy: true,
      vapid: { publicKey: 'pub', privateKey: 'priv', subject: 'mailto:admin@example.com' },
    });
    expect(config.rateLimits.loginPerIp).toBe(5);
  });

  it('derives PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({
      databaseUrl: undefined,
      port: 3000,
    });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        SMTP_URL: 'not a url',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'JWT_SECRET',
      'SMTP_URL',
      'LOG_LEVEL',
      'PUBLIC_URL',
    ])
      expect(message).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(6);
  });
});
