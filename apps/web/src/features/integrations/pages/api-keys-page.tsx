import { Button, Dialog, List, Switch, Tag, Toast } from 'antd-mobile';
import { AddOutline, KeyOutline } from 'antd-mobile-icons';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { DateTimeText } from '@/components/date-time-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate, formatDateTime } from '@/lib/format';
import { API_SCOPES, useApiKeys, useCreateApiKey, useRevokeApiKey, useSnippetInfo, type ApiKeyCreated, type ApiScope } from '../api/api-keys';
import { useCampaigns } from '@/lib/campaign-list-query';
import { campaignName } from '@/lib/campaign-name';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';
import '../components/api-keys.css';

const NAME_MAX = 60;
/** i18next reads ":" as a namespace separator, so the texts are keyed without it. */
const SCOPE_KEYS: Record<ApiScope, string> = { 'conversions:write': 'write', 'conversions:read': 'read' };

/** Name, permissions and the signature switch; hands the one-time answer (with the secret) up. */
function NewKeyForm({ onCreated, onCancel }: { onCreated: (created: ApiKeyCreated) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>(['conversions:write']);
  const [requireSignature, setRequireSignature] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  const toggleScope = (scope: ApiScope, on: boolean) => {
    setScopes((s) => (on ? API_SCOPES.filter((x) => x === scope || s.includes(x)) : s.filter((x) => x !== scope)));
    if (errors.scopes) setErrors((e) => ({ ...e, scopes: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found = { name: name.trim() ? undefined : 'required', scopes: scopes.length ? undefined : 'required' };
    setErrors(found);
    if (found.name || found.scopes) return;
    try {
      onCreated(await create.mutateAsync({ name: name.trim(), scopes, requireSignature }));
    } catch (error) {
      setFormError(errorText(t, error));
      if (error instanceof ApiError) setErrors({ name: error.fields.name, scopes: error.fields.scopes });
    }
  };

  return (
    <form className="card console-key-form" onSubmit={onSubmit} noValidate data-testid="api-key-form">
      <h2>{t('moneyAdmin.apiKeys.formTitle')}</h2>
      {formError ? <div className="form-error" role="alert">{formError}</div> : null}
      <Field id="api-key-name" label={t('moneyAdmin.apiKeys.name')} error={errors.name} help={t('moneyAdmin.apiKeys.nameHelp')}>
        <TextInput
          id="api-key-name"
          data-testid="api-key-name"
          value={name}
          onChange={(v) => {
            setName(v);
            if (errors.name) setErrors((e) => ({ ...e, name: undefined }));
          }}
          invalid={!!errors.name}
          maxLength={NAME_MAX}
          placeholder={t('moneyAdmin.apiKeys.namePlaceholder')}
          autoComplete="off"
        />
      </Field>
      <fieldset className={`console-fieldset field${errors.scopes ? ' field-invalid' : ''}`} aria-describedby="api-key-scopes-msg">
        <legend className="console-field-label">{t('moneyAdmin.apiKeys.scopes')}</legend>
        {API_SCOPES.map((scope) => (
          <label key={scope} className="check-row console-scope">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => toggleScope(scope, e.target.checked)} data-testid={`api-key-scope-${scope}`} />
            <span>
              <span className="console-scope-title">{t(`moneyAdmin.apiKeys.scope.${SCOPE_KEYS[scope]}`)}</span>
              <code className="console-code">{scope}</code>
            </span>
          </label>
        ))}
        {errors.scopes ? <p className="field-error" id="api-key-scopes-msg">{t('moneyAdmin.apiKeys.scopesRequired')}</p> : null}
      </fieldset>
      <div className="console-switch-row">
        <div className="console-switch-label">
          <span className="console-field-label" id="api-key-signature-label">{t('moneyAdmin.apiKeys.signature')}</span>
          <span className="field-help" id="api-key-signature-help">{t('moneyAdmin.apiKeys.signatureHelp')}</span>
        </div>
        <Switch checked={requireSignature} onChange={setRequireSignature} aria-labelledby="api-key-signature-label" aria-describedby="api-key-signature-help" data-testid="api-key-signature" />
      </div>
      <div className="button-row">
        <Button onClick={onCancel}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={create.isPending} data-testid="api-key-create">{t('moneyAdmin.apiKeys.create')}</Button>
      </div>
    </form>
  );
}

/** Shown once, right after creation: the secret cannot be read again. */
function SecretCard({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="card console-secret" data-testid="api-key-secret-card" aria-live="polite">
      <h2>{t('moneyAdmin.apiKeys.secretTitle')}</h2>
      <p className="notice" role="alert">{t('moneyAdmin.apiKeys.secretWarning')}</p>
      <CopyField label={t('moneyAdmin.apiKeys.secretLabel', { name: created.apiKey.name })} value={created.secret} buttonLabel={t('app.copy')} testId="api-key-secret" />
      <Button block color="primary" fill="outline" className="console-secret-done" onClick={onDone} data-testid="api-key-secret-done">{t('moneyAdmin.apiKeys.secretDone')}</Button>
    </section>
  );
}

/** Asks first; the key stops working at once (phone list and desk table alike). */
function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation();
  const revoke = useRevokeApiKey();
  const onRevoke = async () => {
    const values = { name: apiKey.name };
    if (!(await Dialog.confirm({ content: t('moneyAdmin.apiKeys.confirmRevoke', values), confirmText: t('moneyAdmin.apiKeys.revoke'), cancelText: t('app.cancel') }))) return;
    try {
      await revoke.mutateAsync(apiKey.id);
      Toast.show({ icon: 'success', content: t('moneyAdmin.apiKeys.revokedDone', values) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  return <Button size="small" color="danger" fill="outline" loading={revoke.isPending} onClick={() => void onRevoke()} data-testid={`revoke-${apiKey.id}`}>{t('moneyAdmin.apiKeys.revoke')}</Button>;
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const { t, i18n } = useTranslation();
  const revoked = apiKey.revokedAt !== null;
  return (
    <List.Item
      data-testid={`api-key-${apiKey.id}`}
      className={revoked ? 'console-revoked' : undefined}
      description={
        <>
          <code className="console-code">{apiKey.prefix}…</code>
          <span className="console-scopes">
            {apiKey.scopes.map((s) => <code key={s} className="console-code">{s}</code>)}
          </span>
          <span className="console-line">{apiKey.requireSignature ? t('moneyAdmin.apiKeys.signatureRequired') : t('moneyAdmin.apiKeys.signatureOptional')}</span>
          <span className="console-line">{t('moneyAdmin.apiKeys.createdOn', { date: formatDate(apiKey.createdAt, i18n.language) })}</span>
          <span className="console-line">{apiKey.lastUsedAt === null ? t('moneyAdmin.apiKeys.neverUsed') : t('moneyAdmin.apiKeys.lastUsed', { date: formatDateTime(apiKey.lastUsedAt, i18n.language) })}</span>
          {revoked ? <span className="console-line">{t('moneyAdmin.apiKeys.revokedOn', { date: formatDateTime(apiKey.revokedAt!, i18n.language) })}</span> : null}
        </>
      }
      extra={revoked ? (
        <Tag className="status-tag-desk" color="default" fill="outline" round data-testid={`revoked-${apiKey.id}`}>{t('moneyAdmin.apiKeys.revoked')}</Tag>
      ) : <RevokeButton apiKey={apiKey} />}
    >
      <span className="console-row-name">{apiKey.name}</span>
    </List.Item>
  );
}

function KeyList() {
  const { t } = useTranslation();
  const keys = useApiKeys();
  if (keys.isPending) return <PageLoading />;
  if (keys.isError) return <PageError error={keys.error} onRetry={() => keys.refetch()} />;
  if (keys.data.length === 0) return <EmptyState icon={<KeyOutline />} title={t('moneyAdmin.apiKeys.empty')} body={t('moneyAdmin.apiKeys.emptyBody')} />;
  return (
    <List header={t('moneyAdmin.apiKeys.listTitle')} data-testid="api-keys">
      {/* Newest first, revoked ones after the keys still in use. */}
      {[...keys.data].sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null)).map((k) => <KeyRow key={k.id} apiKey={k} />)}
    </List>
  );
}

type KeyFilter = 'active' | 'revoked' | 'all';
const KEY_FILTERS: KeyFilter[] = ['active', 'revoked', 'all'];
const keyMatches = (k: ApiKey, f: KeyFilter) => f === 'all' || (f === 'revoked') === (k.revokedAt !== null);

/** At desk: the keys as a table, filtered by whether they are still in use (the server lists them all at once). */
function KeysDesk({ toolbarAction }: { toolbarAction: ReactNode }) {
  const { t, i18n } = useTranslation();
  const keys = useApiKeys();
  const [filter, setFilter] = useUrlFilter<KeyFilter>('status', KEY_FILTERS, 'active');
  const rows = (keys.data ?? []).filter((k) => keyMatches(k, filter));
  const signature = (k: ApiKey) => (k.requireSignature ? t('moneyAdmin.apiKeys.signatureRequired') : t('moneyAdmin.apiKeys.signatureOptional'));

  const columns: Column<ApiKey>[] = [
    { key: 'name', title: t('console.col.itemName'), sortValue: (k) => k.name, render: (k) => <span className={`data-table-strong${k.revokedAt !== null ? ' console-revoked-name' : ''}`}>{k.name}</span> },
    { key: 'key', title: t('console.col.key'), sortValue: (k) => k.prefix, render: (k) => <code className="console-code">{k.prefix}…</code> },
    { key: 'scopes', title: t('console.col.scopes'), render: (k) => <span className="desk-tags">{k.scopes.map((s) => <code key={s} className="console-code">{s}</code>)}</span> },
    { key: 'signature', priority: 'low', title: t('console.col.signature'), sortValue: (k) => Number(k.requireSignature), render: (k) => <span className="data-table-muted">{signature(k)}</span> },
    { key: 'created', priority: 'low', title: t('console.col.created'), sortValue: (k) => k.createdAt, render: (k) => <span className="data-table-nowrap">{formatDate(k.createdAt, i18n.language)}</span> },
    { key: 'lastUsed', title: t('console.col.lastUsed'), sortValue: (k) => k.lastUsedAt, render: (k) => (k.lastUsedAt === null ? <span className="data-table-muted">{t('console.never')}</span> : <DateTimeText at={k.lastUsedAt} locale={i18n.language} />) },
    {
      key: 'status',
      title: t('console.col.status'),
      sortValue: (k) => k.revokedAt ?? 0,
      render: (k) => (k.revokedAt !== null
        ? <><Tag className="status-tag-desk" color="default" fill="outline" round data-testid={`revoked-${k.id}`}>{t('moneyAdmin.apiKeys.revoked')}</Tag><span className="data-table-sub data-table-nowrap">{formatDate(k.revokedAt, i18n.language)}</span></>
        : <Tag className="status-tag-desk" color="success" fill="outline" round>{t('moneyAdmin.apiKeys.activeTag')}</Tag>),
    },
    { key: 'actions', title: <span className="visually-hidden">{t('console.col.actions')}</span>, align: 'end', render: (k) => (k.revokedAt === null ? <span className="data-table-actions"><RevokeButton apiKey={k} /></span> : null) },
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<ApiKey>({
    filename: csvFilename(`api-keys-${filter}`),
    // The list is one answer, already here: the file holds the rows the filter shows.
    fetchPage: async () => ({ items: rows, nextCursor: null }),
    onProgress,
    csv: 'apiKeys',
    columns: {
      name: (k) => k.name,
      key_prefix: (k) => csvId(`${k.prefix}…`),
      scopes: (k) => k.scopes.join(' '),
      signature_required: signature,
      created_at: (k) => csvTime(k.createdAt),
      last_used_at: (k) => csvTime(k.lastUsedAt),
      revoked_at: (k) => csvTime(k.revokedAt),
      id: (k) => csvId(k.id),
    },
  });

  if (keys.isError) return <PageError error={keys.error} onRetry={() => keys.refetch()} />;
  return (
    <DataTable
      data-testid="api-keys"
      caption={t('moneyAdmin.apiKeys.listTitle')}
      rows={rows}
      rowKey={(k) => k.id}
      rowTestId={(k) => `api-key-${k.id}`}
      columns={columns}
      loading={keys.isPending}
      initialSort={{ key: 'created', dir: 'desc' }}
      empty={<EmptyState icon={<KeyOutline />} title={t(filter === 'revoked' ? 'moneyAdmin.apiKeys.emptyRevoked' : 'moneyAdmin.apiKeys.empty')} body={t(filter === 'revoked' ? 'moneyAdmin.apiKeys.emptyRevokedBody' : 'moneyAdmin.apiKeys.emptyBody')} />}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={filter} onChange={setFilter} options={KEY_FILTERS.map((f) => ({ value: f, label: t(`moneyAdmin.apiKeys.filters.${f}`) }))} testId="api-keys-filter" />}
          actions={<><ExportButton run={exportCsv} />{toolbarAction}</>}
        />
      }
    />
  );
}

/** How the business's server calls the conversions API. */
function ConnectHelp() {
  const { t } = useTranslation();
  const endpoint = new URL('api/v1/conversions', document.baseURI).href;
  return (
    <section className="card console-help" data-testid="api-key-help">
      <h2>{t('moneyAdmin.apiKeys.help.title')}</h2>
      <p className="hint">{t('moneyAdmin.apiKeys.help.intro')}</p>
      <pre className="console-pre">{`POST ${endpoint}\nAuthorization: Bearer <secret>\nContent-Type: application/json\n\n{\n  "campaignId": "…",\n  "kind": "sale",\n  "externalId": "order-1001",\n  "amount": 12900,\n  "clickId": "…"\n}`}</pre>
      <p className="hint">{t('moneyAdmin.apiKeys.help.signature')}</p>
      <pre className="console-pre">{'X-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>'}</pre>
      <p className="hint">{t('moneyAdmin.apiKeys.help.retry')}</p>
      <a className="text-button console-help-docs" href="api/docs" target="_blank" rel="noopener noreferrer" data-testid="api-docs">{t('moneyAdmin.apiKeys.help.docs')}</a>
    </section>
  );
}

/**
 * The landing-page snippet: a script tag to paste into the merchant's pages, its cookie kept for the
 * chosen campaign's attribution window, and what the checkout does with the click id.
 */
function SnippetHelp() {
  const { t, i18n } = useTranslation();
  const info = useSnippetInfo();
  const campaigns = useCampaigns('active');
  const items = campaigns.data?.pages.flatMap((p) => p.items) ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const campaign = items.find((c) => c.id === chosen) ?? items[0];
  const days = campaign?.attributionWindowDays ?? 30;
  const src = new URL(`pa.js${info.data ? `?v=${info.data.version}` : ''}`, document.baseURI).href;
  const tag = `<script async src="${src}" data-days="${days}"></script>`;
  return (
    <section className="card console-help" data-testid="snippet-help">
      <h2>{t('moneyAdmin.apiKeys.snippet.title')}</h2>
      <p className="hint">{t('moneyAdmin.apiKeys.snippet.intro')}</p>
      {items.length > 1 ? (
        <label className="console-snippet-campaign">
          <span>{t('moneyAdmin.apiKeys.snippet.campaign')}</span>
          <select value={campaign?.id ?? ''} onChange={(e) => setChosen(e.target.value)} data-testid="snippet-campaign">
            {items.map((c) => <option key={c.id} value={c.id}>{campaignName(c.names, i18n.language)}</option>)}
          </select>
        </label>
      ) : null}
      <CopyField label={t('moneyAdmin.apiKeys.snippet.tagLabel', { days })} value={tag} buttonLabel={t('app.copy')} testId="snippet-tag" />
      <p className="hint">{t('moneyAdmin.apiKeys.snippet.checkout')}</p>
      <pre className="console-pre">{'const clickId = window.PromotionAssistant?.clickId() ?? null;'}</pre>
      <p className="hint">{t('moneyAdmin.apiKeys.snippet.server')}</p>
    </section>
  );
}

/** `/admin/api-keys` (admins): keys for the business's systems to report conversions. */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const newButton = (
    <Button color="primary" size={desk ? 'middle' : 'small'} onClick={() => setCreating(true)} data-testid="new-api-key">
      <AddOutline aria-hidden /> {t('moneyAdmin.apiKeys.new')}
    </Button>
  );
  const form = created ? (
    <SecretCard created={created} onDone={() => setCreated(null)} />
  ) : creating ? (
    <NewKeyForm
      onCreated={(c) => {
        setCreating(false);
        setCreated(c);
      }}
      onCancel={() => setCreating(false)}
    />
  ) : null;
  if (desk) {
    return (
      <div className="sub-page desk-page console-keys-desk">
        <PageNav title={t('moneyAdmin.apiKeys.title')} fallback="/me" />
        {form ? <div className="console-keys-desk-form">{form}</div> : null}
        <KeysDesk toolbarAction={form ? null : newButton} />
        <SnippetHelp />
        <ConnectHelp />
      </div>
    );
  }
  return (
    <div className="sub-page">
      <PageNav title={t('moneyAdmin.apiKeys.title')} fallback="/me" />
      {form ?? <div className="console-toolbar">{newButton}</div>}
      <KeyList />
      <SnippetHelp />
      <ConnectHelp />
    </div>
  );
}
