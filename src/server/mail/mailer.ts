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
    if (options.smtpUrl) {
      logger.info({ to: message.to, subject: message.subject }, 'mail sent');
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
      { to: message.to, subject: message.subject, file, link: message.link },
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
            { err: error, to: message.to, subject: message.subject },
            'mail could not be sent',
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
