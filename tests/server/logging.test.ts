import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/server/logging';
import { useLoggingTestServer } from './harness';

// Reset tokens reached the info log through the request line (audit item 14):
// "url":"/reset-password/<token>". Request URLs are logged with the token cut out.

const { server, log } = useLoggingTestServer();

describe('request logs', () => {
  it('never show the token of a password reset link', async () => {
    const token = 'Zk3-secret-reset-token-Q9';
    await server.request('GET', `/reset-password/${token}`);
    await server.request('GET', `/reset-password/${token}?from=mail`);
    expect(log()).toContain('/reset-password/[redacted]');
    expect(log()).not.toContain(token);
  });

  it('never show the token of an email confirmation link', async () => {
    const token = 'Yq7-secret-confirm-token-W2';
    await server.request('GET', `/confirm-email/${token}`);
    expect(log()).toContain('/confirm-email/[redacted]');
    expect(log()).not.toContain(token);
  });

  it('redact the path token and any query string, and leave other paths alone', () => {
    expect(redactUrl('/reset-password/abc')).toBe('/reset-password/[redacted]');
    expect(redactUrl('/reset-password/abc/')).toBe('/reset-password/[redacted]/');
    expect(redactUrl('/confirm-email/abc')).toBe('/confirm-email/[redacted]');
    expect(redactUrl('/api/groups/public?search=ada')).toBe('/api/groups/public?[redacted]');
    expect(redactUrl('/api/groups/7')).toBe('/api/groups/7');
  });
});
