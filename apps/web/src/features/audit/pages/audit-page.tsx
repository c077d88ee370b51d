/**
 * `/admin/audit` (admins): every recorded action, newest first, filtered by who, what, which
 * thing and when (the filters live in the address), opened one at a time with its before/after,
 * and exported as the server's CSV of everything the filters match. A table at a desk, cards on
 * a phone.
 */
import { List } from 'antd-mobile';
import { FileOutline, FilterOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, AUDIT_SYSTEM_ACTOR, type AuditEntry } from '@pa/shared';
import { DateTimeText } from '@/components/date-time-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { formatDateTime } from '@/lib/format';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { downloadBlob } from '@/lib/share';
import { exportAudit, useAudit } from '../api/audit';
import { useCurrency } from '@/lib/currency';
import { useStaff } from '@/lib/staff-query';
import { AccountText } from '@/components/account-text';
import { ActorName, EntityRef, AuditDetail, Code, actionLabel, entityLabel } from '../components/audit-detail';
import { ExportButton } from '@/components/desk-toolbar';
import { csvRecordCount, daysInOrder, filtersFromParams, filtersToQuery, parseActionInput, type AuditFilters } from '../lib/audit';
import '../components/audit.css';
import '@/components/desk.css';

/** `promoter` is the entity of promoter exports, beside the types of the shared list. */
const ENTITY_TYPES = [...AUDIT_ENTITIES, 'promoter'] as const;

/** A text filter sent after a pause in typing (and at once on Enter), so each key does not fetch. */
function useTyped(value: string, commit: (v: string) => void): [string, (v: string) => void, () => void] {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // Follows the address when it changes from outside (a cleared filter, a detail's shortcut).
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = window.setTimeout(() => commit(text.trim()), 400);
    return () => window.clearTimeout(timer);
  }, [text, value, commit]);
  return [text, setText, () => commit(text.trim())];
}

function Filters({ filters, set, desk, actorNames, extra }: {
  filters: AuditFilters;
  set: (patch: AuditFilters) => void;
  desk: boolean;
  actorNames: ReadonlyMap<string, string>;
  /** On a phone: beside the filters button (the export). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const staff = useStaff();
  const labels = useMemo(() => new Map(AUDIT_ACTIONS.map((a) => [a, actionLabel(t, a)])), [t]);
  const [actionBad, setActionBad] = useState(false);
  const commitAction = useMemo(() => (text: string) => {
    const parsed = parseActionInput(text, labels);
    setActionBad(!parsed.ok);
    if (parsed.ok && (parsed.action ?? '') !== (filters.action ?? '')) set({ action: parsed.action });
  }, [labels, filters.action, set]);
  const [actionText, setActionText, actionNow] = useTyped(filters.action ?? '', commitAction);
  const commitEntityId = useMemo(() => (text: string) => {
    if (text !== (filters.entityId ?? '')) set({ entityId: text || undefined });
  }, [filters.entityId, set]);
  const [entityText, setEntityText, entityNow] = useTyped(filters.entityId ?? '', commitEntityId);
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState({ from: filters.from ?? '', to: filters.to ?? '' });
  // Follows the address when it changes from outside (cleared filters); a range typed backwards stays until mended.
  const [rangeShown, setRangeShown] = useState(`${filters.from ?? ''}|${filters.to ?? ''}`);
  if (`${filters.from ?? ''}|${filters.to ?? ''}` !== rangeShown) {
    setRangeShown(`${filters.from ?? ''}|${filters.to ?? ''}`);
    setRange({ from: filters.from ?? '', to: filters.to ?? '' });
  }
  const rangeBad = !daysInOrder(range.from || undefined, range.to || undefined);
  const setDay = (key: 'from' | 'to', value: string) => {
    const next = { ...range, [key]: value };
    setRange(next);
    if (daysInOrder(next.from || undefined, next.to || undefined)) set({ from: next.from || undefined, to: next.to || undefined });
  };
  const active = Object.values(filters).filter(Boolean).length;

  const staffOptions = (staff.data ?? []).map((s) => ({ id: s.id, label: `${s.displayName} · ${s.account}` }));
  const actor = filters.actor;
  const unlisted = actor && actor !== AUDIT_SYSTEM_ACTOR && !staffOptions.some((o) => o.id === actor);

  const actionField = (
    <div className={`audit-filter audit-filter-action${actionBad ? ' audit-filter-bad' : ''}`} data-testid="audit-filter-action">
      <label htmlFor="audit-action">{t('auditAdmin.filter.action')}</label>
      <input
        id="audit-action"
        className="audit-input"
        type="search"
        list="audit-action-list"
        value={actionText}
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        placeholder={t('auditAdmin.filter.actionPlaceholder')}
        aria-invalid={actionBad || undefined}
        aria-describedby={actionBad ? 'audit-action-msg' : undefined}
        onChange={(e) => { setActionText(e.target.value); if (actionBad) setActionBad(false); }}
        onKeyDown={(e) => { if (e.key === 'Enter') actionNow(); }}
      />
      <datalist id="audit-action-list">
        {AUDIT_ACTIONS.map((a) => <option key={a} value={a} label={labels.get(a)} />)}
      </datalist>
      {actionBad ? <p className="field-error" id="audit-action-msg" role="alert">{t('auditAdmin.filter.actionInvalid')}</p> : null}
    </div>
  );

  const rest = (
    <>
      <div className="audit-filter">
        <label htmlFor="audit-actor">{t('auditAdmin.filter.actor')}</label>
        <select id="audit-actor" className="audit-input" value={actor ?? ''} onChange={(e) => set({ actor: e.target.value || undefined })} data-testid="audit-filter-actor">
          <option value="">{t('auditAdmin.filter.anyone')}</option>
          <option value={AUDIT_SYSTEM_ACTOR}>{t('auditAdmin.system')}</option>
          {unlisted ? <option value={actor}>{actorNames.get(actor) ?? actor}</option> : null}
          {staffOptions.length ? (
            <optgroup label={t('auditAdmin.filter.staff')}>
              {staffOptions.map((o) => <option key={o.id} value={o.id}>{o.label}</option>)}
            </optgroup>
          ) : null}
        </select>
      </div>
      <div className="audit-filter">
        <label htmlFor="audit-entity-type">{t('auditAdmin.filter.entityType')}</label>
        <select id="audit-entity-type" className="audit-input" value={filters.entityType ?? ''} onChange={(e) => set({ entityType: e.target.value || undefined })} data-testid="audit-filter-entity-type">
          <option value="">{t('auditAdmin.filter.anyType')}</option>
          {ENTITY_TYPES.map((type) => <option key={type} value={type}>{entityLabel(t, type)}</option>)}
        </select>
      </div>
      <div className="audit-filter" data-testid="audit-filter-entity-id">
        <label htmlFor="audit-entity-id">{t('auditAdmin.filter.entityId')}</label>
        <input
          id="audit-entity-id"
          className="audit-input audit-input-mono"
          type="search"
          value={entityText}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setEntityText(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') entityNow(); }}
        />
      </div>
      <fieldset className={`audit-filter audit-range${rangeBad ? ' audit-filter-bad' : ''}`}>
        <legend>{t('auditAdmin.filter.dates')}</legend>
        <div className="audit-range-inputs">
          <input className="audit-input" type="date" value={range.from} max={range.to || undefined} onChange={(e) => setDay('from', e.target.value)} aria-label={t('auditAdmin.filter.from')} data-testid="audit-filter-from" />
          <span aria-hidden>–</span>
          <input className="audit-input" type="date" value={range.to} min={range.from || undefined} onChange={(e) => setDay('to', e.target.value)} aria-label={t('auditAdmin.filter.to')} data-testid="audit-filter-to" />
        </div>
        {rangeBad ? <p className="field-error" role="alert">{t('fields.after_to')}</p> : null}
      </fieldset>
    </>
  );

  const clear = active > 0 ? (
    <button type="button" className="audit-clear" onClick={() => { setRange({ from: '', to: '' }); setActionBad(false); set({ actor: undefined, action: undefined, entityType: undefined, entityId: undefined, from: undefined, to: undefined }); }} data-testid="audit-clear">
      {t('auditAdmin.filter.clear')}
    </button>
  ) : null;

  if (desk) {
    return (
      <div className="audit-filters audit-filters-desk" role="search" aria-label={t('auditAdmin.filter.label')}>
        {actionField}
        {rest}
        {clear}
      </div>
    );
  }
  return (
    <div className="audit-filters audit-filters-phone" role="search" aria-label={t('auditAdmin.filter.label')}>
      {actionField}
      <div className="audit-phone-bar">
        <button type="button" className="audit-more" aria-expanded={open} aria-controls="audit-more-filters" onClick={() => setOpen((o) => !o)} data-testid="audit-more-filters">
          <FilterOutline aria-hidden /> {active > 0 ? t('auditAdmin.filter.moreActive', { count: active }) : t('auditAdmin.filter.more')}
        </button>
        {clear}
        {extra ? <span className="audit-phone-extra">{extra}</span> : null}
      </div>
      {open ? <div id="audit-more-filters" className="audit-more-box">{rest}</div> : null}
    </div>
  );
}

function AuditCards({ entries, onOpen }: { entries: AuditEntry[]; onOpen: (e: AuditEntry) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <List className="audit-cards" data-testid="audit-list">
      {entries.map((e) => (
        <List.Item
          key={e.id}
          onClick={() => onOpen(e)}
          data-testid={`audit-row-${e.action}`}
          description={
            <>
              <span className="console-line"><Code code={e.action} /></span>
              <span className="console-line"><ActorName entry={e} />{e.actor ? ` · ${e.actor.account}` : ''}</span>
              <span className="console-line">
                {entityLabel(t, e.entityType)}
                {e.entityId ? <> · <EntityRef entry={e} /></> : null}
              </span>
              <span className="console-line">{formatDateTime(e.at, i18n.language)}{e.ip ? <> · <code className="audit-code">{e.ip}</code></> : null}</span>
            </>
          }
        >
          <span className="console-row-name">{actionLabel(t, e.action)}</span>
        </List.Item>
      ))}
    </List>
  );
}

export default function AuditPage() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const params = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const audit = useAudit(filters);
  const { currency } = useCurrency();
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const entries = audit.data?.pages.flatMap((p) => p.items) ?? [];
  const actorNames = useMemo(() => {
    const names = new Map<string, string>();
    for (const e of audit.data?.pages.flatMap((p) => p.items) ?? []) if (e.actor) names.set(e.actor.id, `${e.actor.displayName} · ${e.actor.account}`);
    if (open?.actor) names.set(open.actor.id, `${open.actor.displayName} · ${open.actor.account}`);
    return names;
  }, [audit.data, open]);

  const set = useCallback((patch: AuditFilters) => {
    const next: AuditFilters = { ...filters, ...patch };
    for (const key of Object.keys(patch) as (keyof AuditFilters)[]) if (!patch[key]) delete next[key];
    const qs = filtersToQuery(next);
    navigate(`/admin/audit${qs ? `?${qs}` : ''}`, { replace: true });
  }, [filters]);

  const filtered = Object.keys(filters).length > 0;
  const empty = filtered
    ? <EmptyState icon={<FileOutline />} title={t('auditAdmin.noMatch')} body={t('auditAdmin.noMatchBody')} />
    : <EmptyState icon={<FileOutline />} title={t('auditAdmin.empty')} body={t('auditAdmin.emptyBody')} />;

  const exportCsv = async () => {
    const { blob, filename } = await exportAudit(filters);
    downloadBlob(blob, filename);
    // The export is itself an entry of the log: show it.
    void audit.refetch();
    return csvRecordCount(await blob.text());
  };
  const exportButton = <ExportButton run={exportCsv} testId="audit-export" />;

  const columns: Column<AuditEntry>[] = [
    { key: 'time', title: t('auditAdmin.col.time'), sortValue: (e) => e.at, render: (e) => <DateTimeText at={e.at} locale={i18n.language} /> },
    {
      key: 'actor',
      title: t('auditAdmin.col.actor'),
      sortValue: (e) => e.actor?.displayName ?? '',
      render: (e) => <><span className="data-table-strong"><ActorName entry={e} /></span>{e.actor ? <AccountText account={e.actor.account} className="data-table-sub" /> : null}</>,
    },
    {
      key: 'action',
      title: t('auditAdmin.col.action'),
      sortValue: (e) => actionLabel(t, e.action),
      render: (e) => <>{actionLabel(t, e.action)}<span className="data-table-sub"><Code code={e.action} /></span></>,
    },
    {
      key: 'entity',
      title: t('auditAdmin.col.entity'),
      sortValue: (e) => entityLabel(t, e.entityType),
      render: (e) => <>{entityLabel(t, e.entityType)}{e.entityId ? <span className="data-table-sub"><EntityRef entry={e} /></span> : null}</>,
    },
    // The client address stays in the entry's detail and the export; narrow tables leave it out.
    { key: 'ip', title: t('auditAdmin.col.ip'), priority: 'low', sortValue: (e) => e.ip, render: (e) => (e.ip ? <code className="audit-code">{e.ip}</code> : <span className="data-table-muted">—</span>) },
  ];

  const detail = (
    <AuditDetail
      entry={open}
      desk={desk}
      currency={currency}
      onClose={() => setOpen(null)}
      onFilter={(f) => {
        setOpen(null);
        set('actor' in f ? { actor: f.actor } : { entityType: f.entityType, entityId: f.entityId });
      }}
    />
  );

  return (
    <div className={`sub-page audit-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('auditAdmin.title')} fallback="/me" />
      {desk ? (
        <>
          <Filters filters={filters} set={set} desk actorNames={actorNames} />
          {audit.isError ? <PageError error={audit.error} onRetry={() => audit.refetch()} /> : (
            <DataTable
              data-testid="audit-list"
              caption={t('auditAdmin.title')}
              rows={entries}
              rowKey={(e) => e.id}
              rowTestId={(e) => `audit-row-${e.action}`}
              columns={columns}
              loading={audit.isPending}
              pagination={audit}
              empty={empty}
              onRowClick={setOpen}
              toolbar={<div className="desk-toolbar-actions audit-toolbar"><p className="audit-hint">{t('auditAdmin.hint')}</p>{exportButton}</div>}
            />
          )}
        </>
      ) : (
        <>
          <Filters filters={filters} set={set} desk={false} actorNames={actorNames} extra={exportButton} />
          {audit.isPending ? <PageLoading /> : audit.isError ? <PageError error={audit.error} onRetry={() => audit.refetch()} /> : entries.length === 0 ? empty : (
            <>
              <AuditCards entries={entries} onOpen={setOpen} />
              <LoadMore query={audit} />
            </>
          )}
        </>
      )}
      {detail}
    </div>
  );
}
