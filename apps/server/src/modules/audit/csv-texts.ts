/** The audit export's column names in each language (values stay as stored: actions, ids, JSON). */
import type { Locale } from '@pa/shared';

export const AUDIT_CSV_HEADER: Record<Locale, string[]> = {
  en: ['Time (UTC)', 'Actor', 'Actor account', 'Role', 'Action', 'Entity type', 'Entity ID', 'Before', 'After', 'IP address', 'Entry ID'],
  'zh-Hans': ['时间（UTC）', '操作人', '操作人账号', '角色', '操作', '对象类型', '对象 ID', '变更前', '变更后', 'IP 地址', '记录 ID'],
  'zh-Hant': ['時間（UTC）', '操作人', '操作人帳號', '角色', '操作', '對象類型', '對象 ID', '變更前', '變更後', 'IP 位址', '紀錄 ID'],
  fr: ['Heure (UTC)', 'Auteur', 'Compte de l’auteur', 'Rôle', 'Action', 'Type d’objet', 'ID de l’objet', 'Avant', 'Après', 'Adresse IP', 'ID de l’entrée'],
  es: ['Hora (UTC)', 'Autor', 'Cuenta del autor', 'Rol', 'Acción', 'Tipo de objeto', 'ID del objeto', 'Antes', 'Después', 'Dirección IP', 'ID de la entrada'],
};

/** The name shown for entries the server wrote itself (the scheduler, the command line). */
export const AUDIT_CSV_SYSTEM: Record<Locale, string> = {
  en: 'System',
  'zh-Hans': '系统',
  'zh-Hant': '系統',
  fr: 'Système',
  es: 'Sistema',
};
