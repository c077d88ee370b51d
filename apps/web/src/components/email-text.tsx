import { Fragment, type ReactNode } from 'react';

/**
 * An e-mail address shown whole (in a sentence or a list on a phone): when it must wrap, it wraps
 * before the "@" — not inside the name or the domain (not even at a hyphen), as a long address did
 * on Me → E-mail address (issue 28). Each part is an inline block that moves to the next line
 * whole; only a part wider than the line by itself breaks, rather than stick out.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className="email-text"><span>{email}</span></span>;
  return <span className="email-text"><span>{email.slice(0, at)}</span><wbr /><span>{email.slice(at)}</span></span>;
}

/** Stands for the address in a message (`t(key, { email: EMAIL_SLOT })`): a character no text holds. */
export const EMAIL_SLOT = '\uE000';

/** The message `text`, made with EMAIL_SLOT, with the address in the slot (as EmailText). */
export function withEmail(text: string, email: string): ReactNode {
  return text.split(EMAIL_SLOT).map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <EmailText email={email} /> : null}
      {part}
    </Fragment>
  ));
}
