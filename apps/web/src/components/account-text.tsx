/**
 * A person's account (an e-mail address or a phone number) in a console table: on one line, cut
 * with an ellipsis where the column is narrower (the whole account in its tooltip), never broken
 * mid-address across lines (issue 28, item 11).
 */
export function AccountText({ account, className }: { account: string; className?: string }) {
  return <span className={`desk-account${className ? ` ${className}` : ''}`} title={account}>{account}</span>;
}
