import type { MailMessage } from './mailer';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The mail to a new address of an account: one link to PUBLIC_URL/confirm-email/{token}, valid
 * 24 hours. It goes to every new address alike, one with an account or not, so the answer to
 * the change says nothing about who has an account. It carries no text of the account's (its
 * name): the address may be anyone's, and the mail must not carry a message of the sender's.
 */
export function renderEmailChangeMail({ to, link }: { to: string; link: string }): MailMessage {
  const text = [
    'Hello,',
    '',
    'Someone asked to use this address for their Hunch account. To confirm it is yours, open this link within the next 24 hours:',
    '',
    link,
    '',
    'If it was not you, ignore this mail: nothing changes.',
  ].join('\n');
  const html = `<p>Hello,</p>
<p>Someone asked to use this address for their Hunch account. To confirm it is yours, open this link within the next 24 hours:</p>
<p><a href="${escapeHtml(link)}">Confirm your new email</a></p>
<p>If it was not you, ignore this mail: nothing changes.</p>`;
  return { to, subject: 'Confirm your new Hunch email', text, html, link };
}
