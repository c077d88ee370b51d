import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../types';
import { foundation } from './001-foundation';
import { campaignsLinksClicks } from './002-campaigns-links-clicks';
import { money } from './003-money';
import { withdrawals } from './004-withdrawals';
import { stats } from './005-stats';
import { clickIndex } from './006-click-index';
import { humanClicks } from './007-human-clicks';
import { consoleTables } from './008-console';
import { overviewTables } from './009-overview';
import { auditTruncate } from './010-audit-truncate';
import { liabilityIndexes } from './011-liability-index';
import { webhookTables } from './012-webhooks';
import { mailTables } from './013-mail';
import { webhookOutbox } from './014-webhook-outbox';
import { stripeRecurring } from './015-stripe-recurring';
import { stripePending } from './016-stripe-pending';
import { campaignEndDay } from './017-campaign-end-day';
import { desk } from './018-desk';
import { emailVerification } from './019-email-verification';
import { moneyChecks } from './020-money-checks';
import { promoterGroups } from './021-promoter-groups';
import { rewardRules } from './022-reward-rules';
import { applicationForms } from './023-application-forms';
import { corrections } from './024-corrections';
import { bounties } from './025-bounties';

/**
 * Every migration, listed explicitly and in order; each is given the dialect. Migrations use no
 * application code (a later change to it would change what they did to old databases).
 */
export function migrationProvider(dialect: Dialect, timeZone: string): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001-foundation': foundation(dialect),
        '002-campaigns-links-clicks': campaignsLinksClicks(dialect),
        '003-money': money(dialect),
        '004-withdrawals': withdrawals(dialect),
        '005-stats': stats(dialect, timeZone),
        '006-click-index': clickIndex(),
        '007-human-clicks': humanClicks(),
        '008-console': consoleTables(dialect),
        '009-overview': overviewTables(dialect),
        '010-audit-truncate': auditTruncate(dialect),
        '011-liability-index': liabilityIndexes(),
        '012-webhooks': webhookTables(dialect),
        '013-mail': mailTables(dialect),
        '014-webhook-outbox': webhookOutbox(dialect),
        '015-stripe-recurring': stripeRecurring(dialect),
        '016-stripe-pending': stripePending(dialect),
        '017-campaign-end-day': campaignEndDay(timeZone),
        '018-desk': desk(dialect),
        '019-email-verification': emailVerification(dialect),
        '020-money-checks': moneyChecks(dialect),
        '021-promoter-groups': promoterGroups(dialect),
        '022-reward-rules': rewardRules(dialect),
        '023-application-forms': applicationForms(dialect),
        '024-corrections': corrections(dialect),
        '025-bounties': bounties(dialect),
      };
    },
  };
}
