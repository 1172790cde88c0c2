import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { vi } from 'vitest';

// A real SMTP server on loopback that keeps every message it receives, so mail tests go
// through nodemailer and SMTP exactly as production does.

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The text with quoted-printable soft line breaks and escapes undone. */
  decoded: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail: (to, timeoutMs = 5000) =>
      vi.waitFor(
        () => {
          const mail = mails.find((m) => m.to.includes(to));
          if (!mail)
            throw new Error(
              `No mail to ${to}; mails to: ${JSON.stringify(mails.map((m) => m.to))}`,
            );
          return mail;
        },
        { timeout: timeoutMs, interval: 20 },
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
