/**
 * The mails (issue 16), in the reader's language: a subject, a few paragraphs, at most one button
 * (a link), and for the mails a person can turn off, a line saying where. Rendered once, when the
 * mail is written, to plain text and to simple HTML (inline styles only; every value escaped).
 *
 * The texts are the catalogue's (packages/shared/src/texts/server/<locale>.ts, issue 30), filled by
 * its renderer: `{{name}}` placeholders; a value is a string, a number, a money amount or a
 * calendar day, written by the web's own formatters (packages/shared/src/format.ts: "CN¥27.10",
 * "27,10 CN¥", as the app shows them). A number the text lists in `counted` becomes a phrase in
 * its plural form ("1 commission", "2 commissions"; one form in Chinese).
 */
import type { Locale, MailTemplate } from '@pa/shared';
import { DEFAULT_APP_NAME, LOCALES } from '@pa/shared';
import { interpolate, NOTIFICATION_TEXTS, SERVER_TEXTS, textValues, type TextValue } from '@pa/shared/texts';

type MailValue = TextValue;
export type MailParams = Record<string, MailValue>;

/** Why an endpoint was disabled, in each language (the webhook_disabled mail's `reason`, worded as the admins' inbox says it). */
export const DISABLED_REASONS = Object.fromEntries(
  (['gone', 'failing'] as const).map((why) => [why, Object.fromEntries(LOCALES.map((l) => [l, NOTIFICATION_TEXTS[l].staff.webhook_disabled[why]])) as Record<Locale, string>]),
) as Record<'gone' | 'failing', Record<Locale, string>>;

interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The mail `template` for a reader of `locale`. `url` (when given) is the button's address; the
 * mails of a category a person can turn off say where.
 */
export function renderMail(template: MailTemplate, locale: Locale, params: MailParams, options: { appName: string | null; url?: string; optOut: boolean }): RenderedMail {
  const t = SERVER_TEXTS[locale].mail[template];
  const chrome = SERVER_TEXTS[locale].mailChrome;
  const values = { app: options.appName ?? DEFAULT_APP_NAME[locale], ...textValues(params, locale, t.counted) };
  const plain = (s: string) => interpolate(s, values);
  const html = (s: string) => interpolate(escapeHtml(s), values, escapeHtml);
  const footer = [...(options.optOut ? [chrome.optOut] : []), chrome.automatic];

  const textParts = t.body.map(plain);
  if (t.action && options.url) textParts.push(`${plain(t.action)}${chrome.colon}\n${options.url}`);
  const text = `${textParts.join('\n\n')}\n\n--\n${footer.map(plain).join('\n')}\n`;

  const button = t.action && options.url
    ? `<p style="margin:24px 0"><a href="${escapeHtml(options.url)}" style="display:inline-block;padding:12px 20px;background:#1677ff;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${html(t.action)}</a></p>`
      + `<p style="font-size:13px;color:#666666">${escapeHtml(chrome.open)} <a href="${escapeHtml(options.url)}" style="color:#1677ff;word-break:break-all">${escapeHtml(options.url)}</a></p>`
    : '';
  const htmlBody = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${html(t.subject)}</title></head>`
    + `<body style="margin:0;padding:0;background:#f5f5f5"><div style="max-width:560px;margin:0 auto;padding:24px;font-family:-apple-system,'Segoe UI',Roboto,'PingFang SC','Noto Sans CJK SC',sans-serif;font-size:15px;line-height:1.6;color:#1f1f1f;background:#ffffff">`
    + `<p style="margin:0 0 16px;font-size:17px;font-weight:600">${escapeHtml(values.app)}</p>`
    + t.body.map((p) => `<p style="margin:0 0 12px">${html(p)}</p>`).join('')
    + button
    + `<hr style="border:none;border-top:1px solid #eeeeee;margin:24px 0 12px">`
    + footer.map((f) => `<p style="margin:0;font-size:12px;color:#888888">${html(f)}</p>`).join('')
    + '</div></body></html>';
  return { subject: plain(t.subject), text, html: htmlBody };
}
