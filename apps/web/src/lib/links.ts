/**
 * Addresses the app hands out, built from the page's own address so they work whatever
 * sub-path the app is served from (`/`, `/promo/`, `/a/b/`).
 */

/** The page's base: its address without query and hash. */
function pageBase(href: string): URL {
  const url = new URL(href);
  url.hash = '';
  url.search = '';
  return url;
}

/** The invite link: the app's own address + the register route with the code. */
export function inviteLink(code: string, href = window.location.href): string {
  const url = pageBase(href);
  url.hash = `#/register?invite=${encodeURIComponent(code)}`;
  return url.toString();
}

/** A group's invite link: the register route with the group's code (issue 31); new promoters join that group. */
export function groupInviteLink(code: string | null, href = window.location.href): string {
  const url = pageBase(href);
  url.hash = code ? `#/register?group=${encodeURIComponent(code)}` : '#/register';
  return url.toString();
}

/** A tracked link: `<base>/r/<code>`, resolved against the page like every API call. */
export function trackedLink(code: string, href = window.location.href): string {
  return new URL(`r/${encodeURIComponent(code)}`, pageBase(href)).toString();
}
