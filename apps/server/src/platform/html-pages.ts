/** Small, self-contained, localized HTML pages for errors outside the single-page app. */
import type { Locale } from '@pa/shared';
import { SERVER_TEXTS } from '@pa/shared/texts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE =
  'body{margin:0;font-family:system-ui,-apple-system,"Noto Sans CJK SC","PingFang SC",sans-serif;background:#f5f6f8;color:#1f2329;display:flex;min-height:100vh;align-items:center;justify-content:center}' +
  'main{max-width:22rem;padding:2rem 1.5rem;text-align:center}h1{font-size:1.4rem;margin:0 0 .75rem}p{color:#555;line-height:1.5;margin:0 0 1.5rem}' +
  'a{display:inline-block;min-height:44px;line-height:44px;padding:0 1.25rem;border-radius:8px;background:#1677ff;color:#fff;text-decoration:none}';

/** The CSP allows this page's one inline style by its hash (computed at start, see security.ts). */
export const ERROR_PAGE_STYLE = STYLE;

export function renderErrorPage(locale: Locale, kind: 'not_found' | 'error' | 'link_not_found', homeHref = './'): string {
  const t = SERVER_TEXTS[locale].pages;
  const title = kind === 'not_found' ? t.notFoundTitle : kind === 'link_not_found' ? t.linkNotFoundTitle : t.errorTitle;
  const body = kind === 'not_found' ? t.notFoundBody : kind === 'link_not_found' ? t.linkNotFoundBody : t.errorBody;
  // A visitor of a missing tracked link is not a user of the app: no link into it.
  const home = kind === 'link_not_found' ? '' : `<a href="${escape(homeHref)}">${escape(t.backHome)}</a>`;
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main><h1>${escape(title)}</h1><p>${escape(body)}</p>${home}</main></body></html>`;
}
