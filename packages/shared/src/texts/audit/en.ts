/** English: the audit log's action and subject names (issue 30; the console mounts them under `auditAdmin`, the audit export writes `action_name`). */
import type { AuditTexts } from '../types';

export default {
  actions: {
    user: {
      register: 'Registered',
      profile_update: 'Profile changed',
      password_change: 'Password changed',
      approve: 'Registration approved',
      reject: 'Registration rejected',
      suspend: 'Account suspended',
      reactivate: 'Account reactivated',
      password_reset_link: 'Password reset link made',
      password_reset: 'Password set through a link',
      email_requested: 'Verification link sent to an e-mail address',
      email_verified: 'E-mail address verified',
    },
    session: {
      sign_in: 'Signed in',
      sign_out: 'Signed out',
      revoke: 'Device signed out',
      revoke_all: 'All devices signed out',
    },
    staff: {
      create: 'Staff member added',
      invite: 'Staff invitation link made',
      update: 'Staff member changed',
    },
    settings: {
      update: 'Settings changed',
    },
    crypto: {
      rotate_key: 'Encryption key rotated',
    },
    api_key: {
      create: 'API key created',
      revoke: 'API key revoked',
    },
    webhook: {
      create: 'Webhook endpoint added',
      update: 'Webhook endpoint changed',
      rotate_secret: 'Webhook secret rotated',
      delete: 'Webhook endpoint deleted',
      test: 'Webhook test sent',
      retry: 'Webhook delivery retried',
    },
    integration: {
      stripe_secret: 'Stripe signing secret set',
    },
    campaign: {
      create: 'Campaign created',
      update: 'Campaign changed',
      activate: 'Campaign started',
      pause: 'Campaign paused',
      end: 'Campaign ended',
      rewards: 'Reward rules changed',
      image_add: 'Campaign image added',
      image_remove: 'Campaign image removed',
    },
    announcement: {
      create: 'Announcement created',
      update: 'Announcement changed',
      publish: 'Announcement published',
      archive: 'Announcement archived',
      delete: 'Announcement deleted',
    },
    enrollment: {
      approve: 'Join request approved',
      reject: 'Join request rejected',
      coupon: 'Coupon code set',
    },
    commission: {
      approve: 'Commission approved',
      reject: 'Commission rejected',
      reverse: 'Commission taken back',
    },
    conversion: {
      assign: 'Conversion assigned to a promoter',
    },
    binding: {
      end: 'Customer binding ended',
      move: 'Customer binding moved to another promoter',
    },
    promoter: {
      adjust: 'Manual adjustment',
      export: 'Promoters exported',
      group: 'Moved to another group',
    },
    payout_account: {
      add: 'Payout account added',
      delete: 'Payout account removed',
    },
    withdrawal: {
      requested: 'Withdrawal requested',
      approved: 'Withdrawal approved',
      paid: 'Withdrawal paid',
      failed: 'Withdrawal payment failed',
      rejected: 'Withdrawal rejected',
      cancelled: 'Withdrawal cancelled',
      export: 'Withdrawals exported for the bank',
    },
    audit: {
      export: 'Audit log exported',
    },
    group: {
      create: 'Group created',
      update: 'Group changed',
      delete: 'Group deleted',
      invite_code: 'New group invite link',
    },
    application_form: {
      update: 'Application questions changed',
    },
    bounty: {
      create: 'Bounty created',
      update: 'Bounty changed',
    },
    bounty_submission: {
      approve: 'Bounty proof approved',
      reject: 'Bounty proof rejected',
    },
  },
  entities: {
    user: 'User',
    session: 'Session',
    settings: 'Settings',
    rsa_key: 'Encryption key',
    api_key: 'API key',
    webhook: 'Webhook endpoint',
    campaign: 'Campaign',
    announcement: 'Announcement',
    enrollment: 'Join request',
    commission: 'Commission',
    conversion: 'Conversion',
    binding: 'Customer binding',
    payout_account: 'Payout account',
    withdrawal: 'Withdrawal',
    audit: 'Audit log',
    promoter: 'Promoters',
    group: 'Promoter group',
    bounty: 'Bounty',
    bounty_submission: 'Bounty proof',
  },
} satisfies AuditTexts;
