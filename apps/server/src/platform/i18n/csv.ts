/**
 * Values of the promoter's commission export in each language. Its column names, like every CSV
 * export's, are one snake_case English set whatever the language (docs/api.md, CSV exports).
 */
import type { Locale } from '@pa/shared';

export const COMMISSION_CSV_HEADER = ['occurred_at', 'campaign', 'kind', 'level', 'external_id', 'base', 'rate', 'amount', 'reversed_amount', 'status', 'available_at', 'link_code', 'currency'];

interface CsvTexts {
  status: Record<'pending' | 'approved' | 'rejected' | 'reversed', string>;
  kind: Record<'lead' | 'sale', string>;
  level: Record<1 | 2, string>;
}

export const COMMISSION_CSV: Record<Locale, CsvTexts> = {
  en: {
    status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', reversed: 'Reversed' },
    kind: { lead: 'Lead', sale: 'Sale' },
    level: { 1: 'Direct', 2: 'Team bonus' },
  },
  'zh-Hans': {
    status: { pending: '待结算', approved: '已结算', rejected: '已拒绝', reversed: '已扣回' },
    kind: { lead: '线索', sale: '订单' },
    level: { 1: '直接', 2: '团队奖励' },
  },
  'zh-Hant': {
    status: { pending: '待結算', approved: '已結算', rejected: '已拒絕', reversed: '已扣回' },
    kind: { lead: '名單', sale: '訂單' },
    level: { 1: '直接', 2: '團隊獎勵' },
  },
  fr: {
    status: { pending: 'En attente', approved: 'Validée', rejected: 'Refusée', reversed: 'Annulée' },
    kind: { lead: 'Prospect', sale: 'Vente' },
    level: { 1: 'Directe', 2: 'Bonus d’équipe' },
  },
  es: {
    status: { pending: 'Pendiente', approved: 'Aprobada', rejected: 'Rechazada', reversed: 'Anulada' },
    kind: { lead: 'Lead', sale: 'Venta' },
    level: { 1: 'Directa', 2: 'Bono de equipo' },
  },
};
