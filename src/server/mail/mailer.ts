import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

// Mail through nodemailer (docs/architecture.md §3): SMTP_URL when set; otherwise each mail is
// written to DATA_DIR/outbox as an .eml file and its link logged, so someone running Hunch
// locally can finish a password reset with no mail server.

declare module 'fastify' {
  interface FastifyInstance {
    /** Mails being sent; tests await idle() instead of sleeping. */
    mail: { idle(): Promise<void> };
  }
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about, logged when mail goes to the outbox. */
  link?: string;
}

export interface Mailer {
  /** Sends in the background: the caller's answer must not wait for, or reveal, delivery. */
  send(message: MailMessage): void;
  /** Resolves once no mail is being sent (delivered, written to the outbox, or failed and logged). */
  idle(): Promise<void>;
  /** Waits for mails still being sent. */
  close(): Promise<void>;
}

const FROM = 'Hunch <no-reply@hunch.local>';

export function createMailer(options: {
  smtpUrl: string | undefined;
  dataDir: string;
  logger: FastifyBaseLogger;
}): Mailer {
  const { logger } = options;
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const pending = new Set<Promise<void>>();

  async function deliver(message: MailMessage): Promise<void> {
    const info = await transport.sendMail({
      from: FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    // Logs never hold the recipient's address (docs/self-hosting.md, Logs).
    if (options.smtpUrl) {
      logger.info({ subject: message.subject }, 'mail sent');
      return;
    }
    // Mails hold reset links: the outbox is the owner's only (0700, files 0600).
    mkdirSync(outbox, { recursive: true, mode: 0o700 });
    const file = path.join(
      outbox,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
    );
    writeFileSync(file, (info as unknown as { message: Buffer }).message, { mode: 0o600 });
    logger.info(
      { subject: message.subject, file, link: message.link },
      `mail written to the outbox${message.link ? `: ${message.link}` : ''}`,
    );
  }

  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  return {
    send(message) {
      const sending = deliver(message)
        .catch((error: unknown) =>
          logger.error(
            { subject: message.subject, ...mailError(error) },
            `mail could not be sent: ${mailError(error).reason}`,
          ),
        )
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    idle,
    async close() {
      await idle();
      transport.close();
    },
  };
}

/** An SMTP error as logs may show it: its code and reason, any address in it cut out. */
function mailError(error: unknown): { code?: string; responseCode?: number; reason: string } {
  const { code, responseCode, message } = (error ?? {}) as {
    code?: unknown;
    responseCode?: unknown;
    message?: unknown;
  };
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
    reason: String(message ?? error).replace(/[^\s<>"',;:()]+@[^\s<>"',;:()]+/g, '[address]'),
  };
}

/**
 * At start: whether SMTP_URL's server answers and takes its credentials. A warning, never a
 * refusal (the mail server may come up after Hunch); the URL's password is never logged.
 */
export async function checkMailServer(
  smtpUrl: string | undefined,
  logger: FastifyBaseLogger,
): Promise<void> {
  if (!smtpUrl) return;
  const url = new URL(smtpUrl);
  const where = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? '465' : '587')}`;
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000 });
  try {
    await transport.verify();
    logger.info(`mail server at ${where} answers (SMTP_URL)`);
  } catch (error) {
    const { code, reason } = mailError(error);
    const cause =
      code === 'EAUTH'
        ? `refused the user or password of SMTP_URL (${reason})`
        : // nodemailer's ESOCKET wraps the system's code (connect ECONNREFUSED 127.0.0.1:587).
          `cannot be reached (${/\b(E[A-Z]{3,})\b/.exec(reason)?.[1] ?? code ?? reason})`;
    logger.warn(
      `SMTP_URL: the mail server at ${where} ${cause}: password-reset and email-change mails fail until it works.`,
    );
  } finally {
    transport.close();
  }
}
