/**
 * One audit entry opened from the log: who did what to which thing, from where and when, and its
 * before/after as a table of fields with the changed ones marked. A side panel at a desk, a sheet
 * on a phone.
 */
import { Popup } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@pa/shared';
import { formatDateTime, formatMoney } from '@/lib/format';
import { auditDiff, isInstantField, isMoneyField, type DiffKind } from '../lib/audit';
import './audit.css';

/**
 * The action's name in the reader's language; an action this build has no name for shows its code.
 * The names are the text catalogue's (packages/shared/src/texts/audit/<locale>.ts, loaded with the
 * console's texts under `auditAdmin`): the audit export's `action_name` writes the same words.
 */
export const actionLabel = (t: TFunction, action: string) => t(`auditAdmin.actions.${action}`, { defaultValue: action });
export const entityLabel = (t: TFunction, type: string) => t(`auditAdmin.entities.${type}`, { defaultValue: type });
/** A before/after field's name in the reader's language; '' for a field this build has no name for (its code shows). */
const fieldLabel = (t: TFunction, field: string) => t(`auditAdmin.field.${field}`, { defaultValue: '' });

/**
 * A code (`withdrawal.paid`) with a break opportunity after the dot (<wbr>, which adds no
 * character, so a copied code pastes as it is), so a narrow column wraps it there, not mid-word.
 */
export function Code({ code, className = '' }: { code: string; className?: string }) {
  const dot = code.indexOf('.');
  return (
    <code className={`audit-code ${className}`.trim()} translate="no">
      {dot < 0 ? code : <>{code.slice(0, dot + 1)}<wbr />{code.slice(dot + 1)}</>}
    </code>
  );
}

export function ActorName({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  if (!entry.actor) return <span className="audit-system">{t('auditAdmin.system')}</span>;
  return <span title={entry.actor.id}>{entry.actor.displayName}</span>;
}

/** The entry's object by its name, the id on hover; by its id when it has no name (or is gone). */
export function EntityRef({ entry }: { entry: AuditEntry }) {
  if (!entry.entityId) return null;
  if (entry.entityName) return <span className="audit-entity-name" title={entry.entityId} data-testid="audit-entity-name">{entry.entityName}</span>;
  return <code className="audit-code">{entry.entityId}</code>;
}

function Value({ field, value, present, currency }: { field: string; value: unknown; present: boolean; currency: string | undefined }) {
  const { t, i18n } = useTranslation();
  if (!present) return <span className="audit-none">—</span>;
  if (value === null) return <span className="audit-none">{t('auditAdmin.value.null')}</span>;
  if (typeof value === 'boolean') return <>{t(value ? 'console.yes' : 'console.no')}</>;
  if (typeof value === 'string') return value === '' ? <span className="audit-none">{t('auditAdmin.value.emptyText')}</span> : <span className="audit-text">{value}</span>;
  if (currency && isMoneyField(field, value)) {
    // The stored minor units stay at hand as the tooltip; the cell reads as money.
    return <span className="audit-num" title={String(value)}>{formatMoney(value as number, currency, i18n.language)}</span>;
  }
  if (isInstantField(field, value)) {
    return <span className="audit-num" title={String(value)}>{formatDateTime(value as number, i18n.language)}</span>;
  }
  if (typeof value === 'number') return <span className="audit-num">{String(value)}</span>;
  return <pre className="audit-json">{JSON.stringify(value, null, 2)}</pre>;
}

const MARK: Partial<Record<DiffKind, string>> = { changed: 'auditAdmin.diff.changed', added: 'auditAdmin.diff.added', removed: 'auditAdmin.diff.removed' };

function Changes({ entry, currency }: { entry: AuditEntry; currency: string | undefined }) {
  const { t } = useTranslation();
  const rows = auditDiff(entry.before, entry.after);
  if (rows.length === 0) return <p className="audit-empty-note" data-testid="audit-detail-nochanges">{t('auditAdmin.detail.noChanges')}</p>;
  const changed = rows.filter((r) => MARK[r.kind]).length;
  return (
    <>
      <p className="audit-diff-summary">{t('auditAdmin.detail.changedCount', { count: changed })}</p>
      <div className="audit-diff-scroll">
        <table className="audit-diff" data-testid="audit-diff">
          <thead>
            <tr>
              <th scope="col">{t('auditAdmin.detail.field')}</th>
              <th scope="col">{t('auditAdmin.detail.before')}</th>
              <th scope="col">{t('auditAdmin.detail.after')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const mark = MARK[r.kind];
              const label = r.key ? fieldLabel(t, r.key) : '';
              return (
                <tr key={r.key} className={`audit-diff-${r.kind}`} data-testid={`audit-diff-${r.key || 'value'}`} data-kind={r.kind}>
                  <th scope="row">
                    {label ? <span className="audit-field-label" title={r.key}>{label}</span> : r.key ? <code className="audit-field">{r.key}</code> : <span className="audit-none">{t('auditAdmin.detail.value')}</span>}
                    {mark ? <span className={`audit-mark audit-mark-${r.kind}`}>{t(mark)}</span> : null}
                  </th>
                  <td className="audit-before"><Value field={r.key} value={r.before} present={r.hasBefore} currency={currency} /></td>
                  <td className="audit-after">
                    {r.kind === 'kept' ? <span className="audit-none">{t('auditAdmin.diff.kept')}</span> : <Value field={r.key} value={r.after} present={r.hasAfter} currency={currency} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="audit-meta-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function AuditDetail({ entry, desk, currency, onClose, onFilter }: {
  entry: AuditEntry | null;
  desk: boolean;
  currency: string | undefined;
  onClose: () => void;
  /** Narrows the log to this entry's actor or entity. */
  onFilter: (filter: { actor: string } | { entityType: string; entityId: string }) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Popup
      visible={entry !== null}
      onMaskClick={onClose}
      onClose={onClose}
      position={desk ? 'right' : 'bottom'}
      className={`audit-popup${desk ? ' audit-popup-desk' : ' audit-popup-phone'}`}
      bodyClassName="audit-popup-body"
      destroyOnClose
    >
      {entry ? (
        <section className="audit-detail" role="dialog" aria-labelledby="audit-detail-title" data-testid="audit-detail">
          <header className="audit-detail-head">
            <div className="audit-detail-title-box">
              <h2 id="audit-detail-title" className="audit-detail-title">{actionLabel(t, entry.action)}</h2>
              <Code code={entry.action} />
            </div>
            <button type="button" className="audit-close" onClick={onClose} aria-label={t('auditAdmin.detail.close')} data-testid="audit-detail-close">
              <CloseOutline aria-hidden />
            </button>
          </header>
          <dl className="audit-meta">
            <Meta label={t('auditAdmin.col.time')}>{formatDateTime(entry.at, i18n.language)}</Meta>
            <Meta label={t('auditAdmin.col.actor')}>
              <ActorName entry={entry} />
              {entry.actor ? <span className="audit-sub">{entry.actor.account} · {t(`me.roles.${entry.actor.role}`)}</span> : null}
            </Meta>
            <Meta label={t('auditAdmin.col.entity')}>
              {entityLabel(t, entry.entityType)}
              {entry.entityName ? <span className="audit-sub"><EntityRef entry={entry} /></span> : null}
              {entry.entityId ? <span className="audit-sub"><code className="audit-code">{entry.entityId}</code></span> : null}
            </Meta>
            <Meta label={t('auditAdmin.col.ip')}>{entry.ip ? <code className="audit-code">{entry.ip}</code> : <span className="audit-none">{t('auditAdmin.noIp')}</span>}</Meta>
            <Meta label={t('auditAdmin.detail.entryId')}><code className="audit-code">{entry.id}</code></Meta>
          </dl>
          <div className="audit-detail-links">
            <button type="button" className="audit-link-button" onClick={() => onFilter({ actor: entry.actor?.id ?? 'system' })} data-testid="audit-detail-filter-actor">
              {t('auditAdmin.detail.sameActor')}
            </button>
            {entry.entityId ? (
              <button type="button" className="audit-link-button" onClick={() => onFilter({ entityType: entry.entityType, entityId: entry.entityId! })} data-testid="audit-detail-filter-entity">
                {t('auditAdmin.detail.sameEntity')}
              </button>
            ) : null}
          </div>
          <h3 className="audit-detail-section">{t('auditAdmin.detail.changes')}</h3>
          <Changes entry={entry} currency={currency} />
        </section>
      ) : null}
    </Popup>
  );
}
