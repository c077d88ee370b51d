/**
 * English: what only the server writes — mails, its small HTML pages, the values of its CSV exports, the webhook test event
 * (issue 30). i18next's format, like every entry of the catalogue: `{{name}}` placeholders, counted
 * phrases as `<name>_<plural category>` keys chosen by Intl.PluralRules.
 */
import type { ServerTexts } from '../types';

export default {
  mail: {
    test: {
      subject: 'Test message from {{app}}',
      body: ['Hello,', 'This is a test message from {{app}}. If you can read it, e-mail works.'],
    },
    staff_invite: {
      subject: 'You are invited to the {{app}} console',
      body: [
        'Hello {{name}},',
        'You have been invited to the {{app}} console. Set your password with the link below; it works once, within 30 minutes.',
      ],
      action: 'Set my password',
    },
    password_reset: {
      subject: 'Set a new {{app}} password',
      body: [
        'Hello {{name}},',
        'A link to set a new password for your {{app}} account was made for you. Your current password still works until you set a new one with the link below; it works once, within 30 minutes.',
      ],
      action: 'Set a new password',
    },
    forgot_password: {
      subject: 'Reset your {{app}} password',
      body: [
        'Hello {{name}},',
        'Someone asked to reset the password of your {{app}} account. If it was you, set a new one with the link below; it works once, within 30 minutes.',
        'If it was not you, ignore this message: your password stays as it is.',
      ],
      action: 'Reset my password',
    },
    verify_email: {
      subject: 'Confirm your e-mail address for {{app}}',
      body: [
        'Hello {{name}},',
        'You added this address to your {{app}} account. Confirm it with the link below; it works once, within 24 hours. Once confirmed, your mails and password reset links come here.',
        'If it was not you, ignore this message: the address will not be added.',
      ],
      action: 'Confirm my address',
    },
    registration_approved: {
      subject: 'Welcome to {{app}}: your account is approved',
      body: [
        'Hello {{name}},',
        'Your registration has been approved. You can sign in and start sharing your links.',
      ],
      action: 'Open {{app}}',
    },
    registration_rejected: {
      subject: 'Your {{app}} registration',
      body: [
        'Hello {{name}},',
        'We are sorry: your registration was not approved. If you think this is a mistake, reply to the person who invited you.',
      ],
    },
    commission_digest: {
      subject: '{{count}} approved on {{day}}',
      body: [
        'Hello {{name}},',
        'Approved on {{day}}: {{count}} of yours, {{total}} in all. The amount is added to your available balance.',
      ],
      action: 'See my commissions',
      counted: {
        count_one: '{{count}} commission',
        count_other: '{{count}} commissions',
      },
    },
    withdrawal_paid: {
      subject: 'Your withdrawal is paid: {{net}}',
      body: [
        'Hello {{name}},',
        '{{net}} has been sent to your account {{account}}: your withdrawal of {{amount}}, less a fee of {{fee}}.',
        'Payment reference: {{reference}}',
      ],
      action: 'See the withdrawal',
    },
    withdrawal_failed: {
      subject: 'Your withdrawal of {{amount}} could not be paid',
      body: [
        'Hello {{name}},',
        'The payment of your withdrawal of {{amount}} failed: {{reason}}. The amount is back in your available balance; check your payout account and withdraw again.',
      ],
      action: 'See the withdrawal',
    },
    withdrawal_rejected: {
      subject: 'Your withdrawal of {{amount}} was rejected',
      body: [
        'Hello {{name}},',
        'Your withdrawal of {{amount}} was rejected: {{reason}}. The amount is back in your available balance.',
      ],
      action: 'See the withdrawal',
    },
    work_queue_summary: {
      subject: '{{app}}: {{total}} waiting for review',
      body: [
        'Hello {{name}},',
        'Waiting for the team this morning: {{registrations}}, {{enrollments}}, {{commissions}}, {{withdrawalsToApprove}} and {{withdrawalsToPay}}.',
      ],
      action: 'Open the console',
      counted: {
        total_one: '{{count}} item is',
        total_other: '{{count}} items are',
        registrations_one: '{{count}} registration',
        registrations_other: '{{count}} registrations',
        enrollments_one: '{{count}} campaign application',
        enrollments_other: '{{count}} campaign applications',
        commissions_one: '{{count}} commission to approve',
        commissions_other: '{{count}} commissions to approve',
        withdrawalsToApprove_one: '{{count}} withdrawal to approve',
        withdrawalsToApprove_other: '{{count}} withdrawals to approve',
        withdrawalsToPay_one: '{{count}} withdrawal to pay',
        withdrawalsToPay_other: '{{count}} withdrawals to pay',
      },
    },
    webhook_disabled: {
      subject: '{{app}}: a webhook endpoint was disabled',
      body: [
        'The webhook endpoint {{url}} was disabled: {{reason}}. Events for it are no longer sent.',
        'Check the receiver, then enable the endpoint again in the console.',
      ],
      action: 'Open the webhooks',
    },
    staff_registration: {
      subject: '{{app}}: a new registration awaits approval',
      body: ['Hello {{name}},', 'A new promoter registered and awaits approval. Waiting now: {{count}}.'],
      action: 'Open the registrations',
      counted: {
        count_one: '{{count}} registration',
        count_other: '{{count}} registrations',
      },
    },
    staff_enrollment: {
      subject: '{{app}}: a campaign application awaits approval',
      body: ['Hello {{name}},', 'A promoter asked to join a campaign. Waiting now: {{count}}.'],
      action: 'Open the applications',
      counted: {
        count_one: '{{count}} application',
        count_other: '{{count}} applications',
      },
    },
    staff_withdrawal: {
      subject: '{{app}}: withdrawal requested: {{amount}}',
      body: [
        'Hello {{name}},',
        'A promoter asked to withdraw {{amount}}. Waiting for approval now: {{count}}.',
      ],
      action: 'Open the withdrawals',
      counted: {
        count_one: '{{count}} withdrawal',
        count_other: '{{count}} withdrawals',
      },
    },
    mail_failing: {
      subject: '{{app}}: e-mail is failing',
      body: [
        'Hello {{name}},',
        'A mail could not be sent: {{error}}. Mails are retried for several hours; check the mail server (SMTP_URL) and the console’s E-mail page.',
        'You will be told again only after mail has worked once more.',
      ],
      action: 'Open the E-mail page',
    },
    ledger_breach: {
      subject: '{{app}}: the ledger check found {{count}}',
      body: [
        'Hello {{name}},',
        'A ledger check found {{count}}. Balances and reports may be wrong until it is mended: open the ledger check to see each one.',
        'You will be told again only when the problems found change.',
      ],
      action: 'Open the ledger check',
      counted: {
        count_one: '{{count}} problem',
        count_other: '{{count}} problems',
      },
    },
  },
  mailChrome: {
    optOut: 'You can turn these e-mails off in {{app}}: Me → E-mail notifications.',
    automatic: 'This message was sent automatically by {{app}}.',
    open: 'Open:',
    colon: ':',
  },
  pages: {
    linkNotFoundTitle: 'Link not found',
    linkNotFoundBody: 'This link does not exist or was removed. Please check with the person who shared it.',
    notFoundTitle: 'Page not found',
    notFoundBody: 'The page you are looking for does not exist or was removed.',
    errorTitle: 'Something went wrong',
    errorBody: 'The server had a problem. Please try again later.',
    backHome: 'Go to the home page',
  },
  commissionCsv: {
    status: {
      pending: 'Pending',
      approved: 'Approved',
      rejected: 'Rejected',
      reversed: 'Reversed',
    },
    level: {
      direct: 'Direct',
      team: 'Team bonus',
    },
  },
  auditCsv: {
    system: 'System',
  },
  webhookTest: {
    message: 'A test event from {{app}}.',
  },
} satisfies ServerTexts;
