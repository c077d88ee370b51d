/** English: the inbox's messages — what a notification's type and parameters become (issue 30; the web mounts them under `notifications`). */
import type { NotificationTexts } from '../types';

export default {
  aCampaign: 'a campaign',
  reason: 'Reason: {{reason}}',
  reference: 'Payout reference: {{reference}}',
  error: 'Error: {{error}}',
  enrollment: {
    approved: {
      title: 'You can now promote “{{campaign}}”',
      body: 'Your request to join was approved. Create a link and start sharing.',
    },
    rejected: {
      title: 'Join request declined: “{{campaign}}”',
      body: 'Your request to join this campaign was not approved.',
    },
  },
  commission: {
    created: {
      title: 'New commission: {{amount}}',
      titleTeam: 'New team bonus: {{amount}}',
      body: 'From “{{campaign}}”. It becomes available after the return period.',
      bodyTeam: 'From a team member’s sale in “{{campaign}}”. It becomes available after the return period.',
    },
    approved: {
      title: '{{amount}} is now available',
      titleTeam: 'Team bonus of {{amount}} is now available',
      body: 'Your commission from “{{campaign}}” was approved. You can withdraw it.',
      bodyTeam: 'Your team bonus from “{{campaign}}” was approved. You can withdraw it.',
    },
    rejected: {
      title: 'Commission rejected: {{amount}}',
      titleTeam: 'Team bonus rejected: {{amount}}',
      body: 'Your commission from “{{campaign}}” was not approved.',
      bodyTeam: 'Your team bonus from “{{campaign}}” was not approved.',
    },
    reversed: {
      title: 'Commission taken back: {{amount}}',
      titleTeam: 'Team bonus taken back: {{amount}}',
      body: 'The order in “{{campaign}}” was refunded, so its commission was taken back.',
      bodyTeam: 'A team member’s order in “{{campaign}}” was refunded, so the bonus was taken back.',
      bodyClawback: 'The program took back your commission from “{{campaign}}”.',
      bodyClawbackTeam: 'The program took back your team bonus from “{{campaign}}”.',
    },
  },
  withdrawal: {
    requested: {
      title: 'Withdrawal requested: {{amount}}',
      body: 'You will receive {{net}} once it is approved and paid.',
    },
    approved: {
      title: 'Withdrawal approved: {{amount}}',
      body: '{{net}} is on its way to your account.',
    },
    paid: {
      title: 'Withdrawal paid: {{net}}',
      body: 'The money was sent to your payout account.',
    },
    failed: {
      title: 'Withdrawal failed: {{amount}}',
      body: 'The payment did not go through. The amount is back in your available balance.',
    },
    rejected: {
      title: 'Withdrawal rejected: {{amount}}',
      body: 'The amount is back in your available balance.',
    },
    cancelled: {
      title: 'Withdrawal cancelled: {{amount}}',
      body: 'The amount is back in your available balance.',
    },
  },
  adjustment: {
    creditTitle: 'Added to your balance: {{amount}}',
    debitTitle: 'Deducted from your balance: {{amount}}',
    body: 'The program adjusted your available balance by {{amount}}. Reason: {{reason}}',
    bodyNoReason: 'The program adjusted your available balance by {{amount}}.',
  },
  bounty: {
    earned: {
      title: 'Bounty earned: {{amount}}',
      body: 'You reached “{{bounty}}” in “{{campaign}}”. It becomes available after the return period.',
    },
    submission_rejected: {
      title: 'Proof not accepted: “{{bounty}}”',
      body: 'Your proof for this bounty in “{{campaign}}” was not approved. You can send another.',
    },
  },
  unknown: {
    title: 'New notification',
    body: 'Update the app to see this notification in full.',
  },
  staff: {
    registration: {
      title_one: '{{count}} registration awaits approval',
      title_other: '{{count}} registrations await approval',
      body: 'A new promoter registered. Review them in Registrations.',
    },
    enrollment: {
      title_one: '{{count}} join request awaits approval',
      title_other: '{{count}} join requests await approval',
      body: 'A promoter asked to join a campaign. Review it in Join requests.',
    },
    withdrawal: {
      title: 'Withdrawal requested: {{amount}}',
      body_one: '{{count}} withdrawal waits for approval.',
      body_other: '{{count}} withdrawals wait for approval.',
    },
    webhook_disabled: {
      title: 'Webhook endpoint disabled',
      body: '{{url}} was disabled: {{reason}}. Events for it are no longer sent.',
      gone: 'the receiver answered 410 Gone',
      failing: 'every delivery failed for 5 days',
    },
    mail_failing: {
      title: 'E-mail is failing',
      body: 'A mail could not be sent. You will be told again only after mail has worked once more.',
    },
    ledger_breach: {
      title_one: 'The ledger check found {{count}} problem',
      title_other: 'The ledger check found {{count}} problems',
      body: 'Balances and reports may be wrong until it is mended. Open the ledger check to see each one.',
    },
  },
} satisfies NotificationTexts;
