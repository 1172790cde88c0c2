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
      connectionLimits: {
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        idleTimeoutMs: 72_000,
        maxPerIp: 256,
        maxSocketsPerUser: 20,
      },
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
      TRUST_PROXY: '1',
      RATE_LIMIT_LOGIN_PER_IP: '5',
      REQUEST_TIMEOUT_MS: '20000',
      HEADERS_TIMEOUT_MS: '5000',
      IDLE_TIMEOUT_MS: '65000',
      MAX_CONNECTIONS_PER_IP: '0',
      MAX_SOCKETS_PER_USER: '5',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/tmp/hunch-data',
      databaseUrl: 'postgres://u:p@db:5432/hunch',
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtp://mail:25',
      publicUrl: 'https://hunch.example.com',
      logLevel: 'warn',
      trustProxy: 1,
      connectionLimits: {
        requestTimeoutMs: 20_000,
        headersTimeoutMs: 5_000,
        idleTimeoutMs: 65_000,
        maxPerIp: 0,
        maxSocketsPerUser: 5,
      },
      vapid: { publicKey: 'pub', privateKey: 'priv', subject: 'mailto:admin@example.com' },
    });
    expect(config.rateLimits.loginPerIp).toBe(5);
  });

  it('reads TRUST_PROXY as a number of proxy hops or the proxies’ addresses, never as "trust the client"', () => {
    const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('10.0.0.0/8, 192.0.2.7 ,2001:db8::/32')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
    ]);
    expect(trustProxy('loopback,uniquelocal')).toEqual(
      expect.arrayContaining(['127.0.0.1/8', '::1/128', '10.0.0.0/8', 'fc00::/7']),
    );
    // `true` believed the left-most X-Forwarded-For entry, which any client writes.
    for (const value of ['true', 'yes', '10.0.0.0/33', '10.0.0.1/8/8', 'proxy.internal', '1.5'])
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/number of proxies/);
  });

  it('refuses headers that may take longer than the whole request', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      /HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS/,
    );
  });

  it('reads the round results settings: the poll interval and the wait after kick-off', () => {
    expect(
      loadConfig({
        FOOTBALL_DATA_TOKEN: 'token',
        FOOTBALL_DATA_URL: 'http://127.0.0.1:9000/',
        RESULTS_INTERVAL_MS: '1000',
        ROUND_RESULTS_AFTER_KICKOFF_MINUTES: '130',
      }).roundResults,
    ).toEqual({
      token: 'token',
      url: 'http://127.0.0.1:9000',
      intervalMs: 1000,
      afterKickoffMs: 130 * 60_000,
    });
    expect(
      loadConfig({ ROUND_RESULTS_AFTER_KICKOFF_MINUTES: '' }).roundResults.afterKickoffMs,
    ).toBe(110 * 60_000);
    for (const [value, message] of [
      ['-1', 'must be 0 or more'],
      ['1.5', 'must be a whole number'],
      ['two hours', 'must be a number'],
      ['20000', 'must be at most 10080'],
    ])
      expect(() => loadConfig({ ROUND_RESULTS_AFTER_KICKOFF_MINUTES: value }), value).toThrow(
        `ROUND_RESULTS_AFTER_KICKOFF_MINUTES: ${message}`,
      );
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
    // In the operator's words, not the parser's ("expected number, received NaN").
    expect(message).toContain('PORT: must be a number');
  });
});
