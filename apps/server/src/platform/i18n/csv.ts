/** Column names and values of the promoter's commission export, in each language. */
import type { Locale } from '@pa/shared';

interface CsvTexts {
  header: string[];
  status: Record<'pending' | 'approved' | 'rejected' | 'reversed', string>;
  kind: Record<'lead' | 'sale', string>;
  level: Record<1 | 2, string>;
}

export const COMMISSION_CSV: Record<Locale, CsvTexts> = {
  en: {
    header: ['Date', 'Campaign', 'Type', 'Level', 'Order', 'Order amount', 'Rate', 'Commission', 'Taken back', 'Status', 'Available from', 'Link', 'Currency'],
    status: { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', reversed: 'Reversed' },
    kind: { lead: 'Lead', sale: 'Sale' },
    level: { 1: 'Direct', 2: 'Team bonus' },
  },
  'zh-Hans': {
    header: ['日期', '活动', '类型', '层级', '订单号', '订单金额', '比例', '佣金', '已扣回', '状态', '可提现日期', '链接', '币种'],
    status: { pending: '待结算', approved: '已结算', rejected: '已拒绝', reversed: '已扣回' },
    kind: { lead: '线索', sale: '订单' },
    level: { 1: '直接', 2: '团队奖励' },
  },
  'zh-Hant': {
    header: ['日期', '活動', '類型', '層級', '訂單編號', '訂單金額', '比例', '佣金', '已扣回', '狀態', '可提領日期', '連結', '幣別'],
    status: { pending: '待結算', approved: '已結算', rejected: '已拒絕', reversed: '已扣回' },
    kind: { lead: '名單', sale: '訂單' },
    level: { 1: '直接', 2: '團隊獎勵' },
  },
  fr: {
    header: ['Date', 'Campagne', 'Type', 'Niveau', 'Commande', 'Montant de la commande', 'Taux', 'Commission', 'Repris', 'Statut', 'Disponible le', 'Lien', 'Devise'],
    status: { pending: 'En attente', approved: 'Validée', rejected: 'Refusée', reversed: 'Annulée' },
    kind: { lead: 'Prospect', sale: 'Vente' },
    level: { 1: 'Directe', 2: 'Bonus d’équipe' },
  },
  es: {
    header: ['Fecha', 'Campaña', 'Tipo', 'Nivel', 'Pedido', 'Importe del pedido', 'Tasa', 'Comisión', 'Recuperado', 'Estado', 'Disponible desde', 'Enlace', 'Moneda'],
    status: { pending: 'Pendiente', approved: 'Aprobada', rejected: 'Rechazada', reversed: 'Anulada' },
    kind: { lead: 'Lead', sale: 'Venta' },
    level: { 1: 'Directa', 2: 'Bono de equipo' },
  },
};
