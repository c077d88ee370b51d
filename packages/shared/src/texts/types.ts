/** The shape of the text catalogue (issue 30): every locale's files satisfy these. */
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
  /** Why a webhook endpoint was disabled (the webhook_disabled mail's `reason`). */
  webhookDisabledReasons: Record<'gone' | 'failing', string>;
  /** The server's small HTML pages. */
  pages: Record<'notFoundTitle' | 'notFoundBody' | 'errorTitle' | 'errorBody' | 'backHome' | 'linkNotFoundTitle' | 'linkNotFoundBody', string>;
  /** Values of the promoter's commission export (its column names are snake_case English, the same in every language). */
  commissionCsv: {
    status: Record<'pending' | 'approved' | 'rejected' | 'reversed', string>;
    kind: Record<'lead' | 'sale', string>;
    level: Record<'direct' | 'team', string>;
  };
  /** The audit export's name for entries the server wrote itself (the scheduler, the command line). */
  auditCsv: { system: string };
}
