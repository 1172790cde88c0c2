import type { MailMessage } from './mailer';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The password reset mail: one link to PUBLIC_URL/reset-password/{token}, valid one hour. */
export function renderPasswordResetMail({
  to,
  displayName,
  link,
}: {
  to: string;
  displayName: string;
  link: string;
}): MailMessage {
  const text = [
    `Hi ${displayName},`,
    '',
    'Someone asked to reset the password of your Hunch account. To choose a new one, open this link within the next hour:',
    '',
    link,
    '',
    'If it was not you, ignore this mail: your password stays the same.',
  ].join('\n');
  const html = `<p>Hi ${escapeHtml(displayName)},</p>
<p>Someone asked to reset the password of your Hunch account. To choose a new one, open this link within the next hour:</p>
<p><a href="${escapeHtml(link)}">Reset your password</a></p>
<p>If it was not you, ignore this mail: your password stays the same.</p>`;
  return { to, subject: 'Reset your Hunch password', text, html, link };
}
