/** The shape of the text catalogue (issue 30): every locale's files satisfy these. */
import type { AUDIT_ENTITIES, AuditAction } from '../admin-audit';
import type { ErrorCode, FieldCode } from '../errors';
import type { MailTemplate } from '../mail';

/** What any screen may show and the server answers with: one text per error code and field code. */
export interface CommonTexts {
  /** Error codes, and `NETWORK` (the web's own: no answer at all). */
  errors: Record<ErrorCode | 'NETWORK', string>;
  fields: Record<FieldCode, string>;
}

interface MailText {
  subject: string;
  /** Paragraphs. */
  body: string[];
  /** The button's label (its address is the mail's link). */
  action?: string;
  /**
   * Numbers shown as counted phrases: `<name>_<category>` is the phrase for the parameter `name`
   * when Intl.PluralRules of the locale puts its value in `category` ("1 commission", "2 commissions").
   */
  counted?: Record<string, string>;
}

export interface ServerTexts {
  mail: Record<MailTemplate, MailText>;
  mailChrome: {
    /** Under a mail a person can turn off. */
    optOut: string;
    /** Under every mail. */
    automatic: string;
    /** Plain-text lead-in to a link. */
    open: string;
    /** Between the button's label and its address in plain text (French puts a space before it, Chinese a full-width one). */
    colon: string;
  };
  /** The server's small HTML pages. */
  pages: Record<'notFoundTitle' | 'notFoundBody' | 'errorTitle' | 'errorBody' | 'backHome' | 'linkNotFoundTitle' | 'linkNotFoundBody', string>;
  /**
   * Values of the promoter's commission export (its column names are csv-columns.ts's, the same in
   * every language; its `kind` is ConversionTexts' kind).
   */
  commissionCsv: {
    status: Record<'pending' | 'approved' | 'rejected' | 'reversed', string>;
    level: Record<'direct' | 'team', string>;
  };
  /** The audit export's name for entries the server wrote itself (the scheduler, the command line). */
  auditCsv: { system: string };
  /** The `message` of the `webhook.test` event an admin sends from the console, in the admin's language. */
  webhookTest: { message: string };
}

/**
 * A phrase with a number in it, one form per plural category of the language (`title_one`,
 * `title_other`; French and Spanish add `_many`, Chinese has `_other` alone), looked up as i18next
 * does; the catalogue test holds each locale to exactly its language's categories.
 */
type Counted<Name extends string> = Partial<Record<`${Name}_${Intl.LDMLPluralRule}`, string>>;
interface TitleBody { title: string; body: string }

/**
 * The inbox's messages: what a notification's type and parameters become in the reader's language
 * (apps/web/src/features/notifications/lib/message.ts; the web mounts them under `notifications`,
 * beside the inbox page's own texts). Amounts come in written by the web's formatter (`{{amount}}`,
 * `{{net}}`), never as a currency sign in the text.
 */
export interface NotificationTexts {
  /** Instead of a campaign's name when a notification has none. */
  aCampaign: string;
  /** Detail lines under a message. */
  reason: string;
  reference: string;
  error: string;
  enrollment: Record<'approved' | 'rejected', TitleBody>;
  /** `…Team`: the commission is a team bonus (level 2). */
  commission: Record<'created' | 'approved' | 'rejected' | 'reversed', TitleBody & { titleTeam: string; bodyTeam: string }>
    /** Taken back by staff (a clawback, `clawback: true`), not by a refund: the reason is a detail line. */
    & { reversed: { bodyClawback: string; bodyClawbackTeam: string } };
  withdrawal: Record<'requested' | 'approved' | 'paid' | 'failed' | 'rejected' | 'cancelled', TitleBody>;
  adjustment: { creditTitle: string; debitTitle: string; body: string; bodyNoReason: string };
  /** Bounties (docs/bounties.md): `{{bounty}}` the bounty's name, `{{campaign}}` its campaign's; a rejection's reason is a detail line. */
  bounty: Record<'earned' | 'submission_rejected', TitleBody>;
  /** A type this version of the app does not know (a newer server). */
  unknown: TitleBody;
  /** Staff's: what waits for review, and the system's alerts. */
  staff: {
    registration: Counted<'title'> & { body: string };
    enrollment: Counted<'title'> & { body: string };
    withdrawal: Counted<'body'> & { title: string };
    /** `gone`, `failing`: why the endpoint was disabled — the `webhook_disabled` mail's `reason` too. */
    webhook_disabled: TitleBody & Record<'gone' | 'failing', string>;
    mail_failing: TitleBody;
    ledger_breach: Counted<'title'> & { body: string };
  };
}

type AuditArea = AuditAction extends infer A ? (A extends `${infer Area}.${string}` ? Area : never) : never;
type AuditVerb<Area extends string> = AuditAction extends infer A ? (A extends `${Area}.${infer Verb}` ? Verb : never) : never;

/**
 * The audit log's words: a name for every action (`promoter.adjust` → actions.promoter.adjust),
 * so the compiler refuses an action of AUDIT_ACTIONS without one, and for every kind of subject.
 * The console mounts them under `auditAdmin`; the audit export writes the action's name beside its
 * code (`action_name`).
 */
export interface AuditTexts {
  actions: { [Area in AuditArea]: Record<AuditVerb<Area>, string> };
  /** The entries' subjects: AUDIT_ENTITIES, and `promoter` (the promoters export's). */
  entities: Record<(typeof AUDIT_ENTITIES)[number] | 'promoter', string>;
}

/**
 * A conversion's kind and how it was credited: one set for the promoter's commission page, the
 * console's tables and exports, and the promoter's commission export (`kind`).
 */
export interface ConversionTexts {
  /** `bounty`: a commission's kind only (a bounty's reward, docs/bounties.md). */
  kind: Record<'lead' | 'sale' | 'refund' | 'bounty', string>;
  attributedBy: Record<'coupon' | 'click' | 'customer' | 'link' | 'staff', string>;
}
