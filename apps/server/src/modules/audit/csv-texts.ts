/** The audit export's texts (values stay as stored: actions, ids, JSON; only the system's name is translated). */
import type { Locale } from '@pa/shared';

/** The column names: one snake_case English set in every language, like every CSV export (docs/api.md). */
export const AUDIT_CSV_HEADER = ['at', 'actor', 'actor_account', 'actor_role', 'action', 'entity_type', 'entity_id', 'before', 'after', 'ip', 'entry_id'];

/** The name shown for entries the server wrote itself (the scheduler, the command line). */
export const AUDIT_CSV_SYSTEM: Record<Locale, string> = {
  en: 'System',
  'zh-Hans': '系统',
  'zh-Hant': '系統',
  fr: 'Système',
  es: 'Sistema',
};
