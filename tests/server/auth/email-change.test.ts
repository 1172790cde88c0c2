import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME } from '../../../src/domain/constants';
import {
  createGuest,
  createUser,
  login,
  newAccount,
  useTestServer,
  type SignedInUser,
} from '../harness';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';

// PUT /auth/users/me with another account's email answered 409 and a free one 200, so one
// account could probe who has an account. A full account's new email now answers the same
// either way, changes nothing at once, and takes effect only when the new address confirms
// the link mailed to it (a random single-use token, stored hashed, valid a limited time).

const LINK = /http:\/\/hunch\.test\/confirm-email\/([\w-]+)/;
const CONFIRMED = { message: 'Your email address has been changed.' };

describe('changing the email of a full account', () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());
  const server = useTestServer(() => ({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://hunch.test' },
  }));

  const change = (user: SignedInUser, email: string, body: Record<string, unknown> = {}) =>
    server.request('PUT', '/auth/users/me', {
      token: user.accessToken,
      body: { email, currentPassword: user.password, ...body },
    });
  const confirm = (token: string) =>
    server.request('POST', '/auth/confirm-email', { body: { token } });
  const emailOf = async (user: SignedInUser) =>
    (await server.request('GET', '/auth/users/me', { token: user.accessToken })).body.email;

  /** The token of the confirmation link mailed to `email` (the mail is taken off the sink). */
  async function linkMailedTo(email: string): Promise<string> {
    // Every mail started so far has reached the sink: what it lacks now was never sent.
    await server.app.mail.idle();
    const mail = await smtp.waitForMail(email);
    smtp.mails.splice(smtp.mails.indexOf(mail), 1);
    const token = LINK.exec(mail.decoded)?.[1];
    expect(token, mail.decoded).toBeDefined();
    return token!;
  }

  it('answers the same whether the new address is free or has an account (property test)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('free', 'taken', 'taken by a former guest'), {
          minLength: 2,
          maxLength: 5,
        }),
        async (targets) => {
          const user = await createUser(server);
          const answers = [];
          for (const target of targets) {
            let email = newAccount().email.toLowerCase();
            if (target === 'taken') email = (await createUser(server)).email;
            if (target === 'taken by a former guest') {
              const guest = await createGuest(server);
              const account = newAccount({ email });
              const { displayName: _d, appName: _a, ...fields } = account;
              const upgraded = await server.request('PUT', '/auth/users/me', {
                token: guest.accessToken,
                body: fields,
              });
              expect(upgraded.status, upgraded.text).toBe(200);
            }
            const response = await change(user, email);
            answers.push({ status: response.status, body: response.body });
            // A link goes to every new address alike.
            await linkMailedTo(email);
          }
          for (const answer of answers)
            expect(answer).toEqual({ status: 200, body: { user: user.user } });
          expect(await emailOf(user)).toBe(user.email);
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);

  it('keeps the email until the link mailed to the new address is opened', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();

    const response = await change(user, next);

    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe(user.email);
    expect(await emailOf(user)).toBe(user.email);
    expect((await login(server, user.email, user.password)).status).toBe(200);
    const token = await linkMailedTo(next);
    expect(smtp.mails.some((mail) => mail.decoded.includes(token))).toBe(false);

    const confirmed = await confirm(token);

    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual(CONFIRMED);
    expect(await emailOf(user)).toBe(next);
    expect((await login(server, next, user.password)).status).toBe(200);
    expect((await login(server, user.email, user.password)).status).toBe(401);
  });

  it('changes the other fields of the same request at once', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    const response = await change(user, next, { displayName: 'Renamed Ada' });
    expect(response.status).toBe(200);
    expect(response.body.user).toEqual({ ...user.user, displayName: 'Renamed Ada' });
    await linkMailedTo(next);
  });

  it('accepts a link once', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    await change(user, next);
    const token = await linkMailedTo(next);
    expect((await confirm(token)).status).toBe(200);

    const again = await confirm(token);

    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: 'invalid_email_change_token',
      message: expect.stringContaining('invalid or has expired'),
    });
  });

  it('refuses a link past its lifetime, and the email stays', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    await change(user, next);
    const token = await linkMailedTo(next);
    const later = (TOKEN_LIFETIME.emailChangeSeconds + 60) * 1000;
    server.clock.advance(later);
    try {
      const response = await confirm(token);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_email_change_token');
    } finally {
      server.clock.advance(-later);
    }
    expect(await emailOf(user)).toBe(user.email);
  });

  it('refuses an unknown link', async () => {
    const response = await confirm('made-up-token');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_email_change_token');
    const empty = await confirm('');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('validation_failed');
  });

  it('says so when the address was taken meanwhile, and changes nothing', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    await change(user, next);
    const token = await linkMailedTo(next);
    await createUser(server, { email: next });

    const response = await confirm(token);

    expect(response.status).toBe(409);
    expect(response.body.code).toBe('email_or_username_taken');
    expect(await emailOf(user)).toBe(user.email);
  });

  it('keeps only the newest link of an account working', async () => {
    const user = await createUser(server);
    const [first, second] = [newAccount().email.toLowerCase(), newAccount().email.toLowerCase()];
    await change(user, first);
    const firstToken = await linkMailedTo(first);
    await change(user, second);
    const secondToken = await linkMailedTo(second);

    expect((await confirm(firstToken)).status).toBe(400);
    expect((await confirm(secondToken)).status).toBe(200);
    expect(await emailOf(user)).toBe(second);
  });

  it('ends a pending link when the user signs out everywhere', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    await change(user, next);
    const token = await linkMailedTo(next);
    const other = await login(server, user.email, user.password);
    await server.request('DELETE', '/auth/users/me/sessions', {
      token: other.body.accessToken,
    });

    expect((await confirm(token)).status).toBe(400);
  });

  it('ends a reset link mailed to the old address once the new one is confirmed', async () => {
    const user = await createUser(server);
    await server.request('POST', '/auth/forgot-password', { body: { email: user.email } });
    await server.app.mail.idle();
    const resetMail = await smtp.waitForMail(user.email);
    smtp.mails.splice(smtp.mails.indexOf(resetMail), 1);
    const resetToken = /\/reset-password\/([\w-]+)/.exec(resetMail.decoded)![1]!;
    const next = newAccount().email.toLowerCase();
    await change(user, next);
    expect((await confirm(await linkMailedTo(next))).status).toBe(200);

    // Whoever still reads the old mailbox cannot take the account with the old link.
    const reset = await server.request('POST', '/auth/reset-password', {
      body: { token: resetToken, password: 'Taken-over-42', passwordConfirm: 'Taken-over-42' },
    });

    expect(reset.status).toBe(400);
    expect(reset.body.code).toBe('invalid_reset_token');
    expect((await login(server, next, user.password)).status).toBe(200);
  });

  it('still asks for the current password', async () => {
    const user = await createUser(server);
    const next = newAccount().email.toLowerCase();
    const response = await change(user, next, { currentPassword: 'Wrong-password-9' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('invalid_current_password');
    expect(await emailOf(user)).toBe(user.email);
  });

  it('takes at most 10 profile updates naming an email a minute from one user, then 429', async () => {
    const user = await createUser(server);
    const update = (body: Record<string, unknown>) =>
      server.request('PUT', '/auth/users/me', { token: user.accessToken, body });
    for (let i = 0; i < 10; i++) expect((await update({ email: user.email })).status).toBe(200);

    const limited = await update({ email: newAccount().email, currentPassword: user.password });

    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    // Other changes of the profile go on.
    expect((await update({ displayName: 'Still Ada' })).status).toBe(200);
  });
});
