/**
 * `#/admin/webhooks` (admins): the endpoints the program's events are sent to. Add one (its
 * signing secret is shown here once), then open it for its deliveries, a test, its secret and
 * its settings. A table at desk width, a list on a phone.
 */
import { Button, List } from 'antd-mobile';
import { AddOutline, SendOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { formatDate } from '@/lib/format';
import { navigate } from '@/lib/hash-router';
import { useWebhooks, type WebhookEndpoint } from '../api/webhooks';
import { DeskToolbar } from '@/components/desk-toolbar';
import { Sheet } from '@/components/sheet';
import { WebhookForm, WebhookSecret } from '../components/webhook-form';
import { EndpointStatus } from '../components/webhook-status';
import '@/components/desk.css';
import '../components/webhooks.css';

const open = (e: WebhookEndpoint) => navigate(`/admin/webhooks/${encodeURIComponent(e.id)}`);

function Url({ endpoint }: { endpoint: WebhookEndpoint }) {
  return <span className="webhook-url">{endpoint.url}</span>;
}

export default function WebhooksPage() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const webhooks = useWebhooks();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ endpoint: WebhookEndpoint; secret: string } | null>(null);
  const items = webhooks.data ?? [];
  const eventCount = (e: WebhookEndpoint) => t('webhooksAdmin.eventCount', { count: e.events.length });

  const addButton = (
    <Button color="primary" onClick={() => setAdding(true)} data-testid="webhook-add" className="webhook-add">
      <span className="webhook-add-label"><AddOutline aria-hidden /> {t('webhooksAdmin.add')}</span>
    </Button>
  );
  const empty = <EmptyState icon={<SendOutline />} title={t('webhooksAdmin.empty')} body={t('webhooksAdmin.emptyBody')} />;

  let content;
  if (desk) {
    const columns: Column<WebhookEndpoint>[] = [
      {
        key: 'url',
        title: t('webhooksAdmin.col.url'),
        sortValue: (e) => e.url,
        render: (e) => <><Url endpoint={e} />{e.description ? <span className="data-table-sub">{e.description}</span> : null}</>,
      },
      { key: 'events', title: t('webhooksAdmin.col.events'), sortValue: (e) => e.events.length, render: (e) => <span className="data-table-nowrap">{eventCount(e)}</span> },
      { key: 'status', title: t('console.col.status'), sortValue: (e) => e.status, render: (e) => <EndpointStatus endpoint={e} /> },
      { key: 'created', title: t('console.col.created'), sortValue: (e) => e.createdAt, render: (e) => <span className="data-table-nowrap">{formatDate(e.createdAt, i18n.language)}</span> },
    ];
    content = webhooks.isError ? <PageError error={webhooks.error} onRetry={() => void webhooks.refetch()} /> : (
      <DataTable
        data-testid="webhooks"
        caption={t('webhooksAdmin.title')}
        rows={items}
        rowKey={(e) => e.id}
        rowTestId={(e) => `webhook-row-${e.id}`}
        columns={columns}
        loading={webhooks.isPending}
        initialSort={{ key: 'created', dir: 'desc' }}
        onRowClick={open}
        empty={empty}
        toolbar={<DeskToolbar filters={<p className="webhook-lead">{t('webhooksAdmin.lead')}</p>} actions={addButton} />}
      />
    );
  } else if (webhooks.isPending) {
    content = <PageLoading />;
  } else if (webhooks.isError) {
    content = <PageError error={webhooks.error} onRetry={() => void webhooks.refetch()} />;
  } else {
    content = (
      <>
        <div className="webhook-phone-head">
          <p className="webhook-lead">{t('webhooksAdmin.lead')}</p>
          {addButton}
        </div>
        {items.length === 0 ? empty : (
          <List className="webhook-list" data-testid="webhooks">
            {items.map((e) => (
              <List.Item
                key={e.id}
                onClick={() => open(e)}
                data-testid={`webhook-row-${e.id}`}
                description={
                  <>
                    {e.description ? <span className="console-line">{e.description}</span> : null}
                    <span className="console-line">{eventCount(e)}</span>
                  </>
                }
                extra={<EndpointStatus endpoint={e} detail={false} />}
              >
                <Url endpoint={e} />
              </List.Item>
            ))}
          </List>
        )}
      </>
    );
  }

  return (
    <div className={`sub-page webhook-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('webhooksAdmin.title')} fallback="/me" />
      {content}
      <Sheet visible={adding} onClose={() => setAdding(false)} labelledBy="webhook-form-title" wide>
        <WebhookForm
          onCancel={() => setAdding(false)}
          onSaved={({ endpoint, secret }) => { setAdding(false); if (secret) setCreated({ endpoint, secret }); }}
        />
      </Sheet>
      {/* Not closed by a tap outside: the secret is shown only once. */}
      <Sheet visible={created !== null} onClose={() => undefined} labelledBy="webhook-secret-title">
        {created ? <WebhookSecret endpoint={created.endpoint} secret={created.secret} rotated={false} onDone={() => { const e = created.endpoint; setCreated(null); open(e); }} /> : null}
      </Sheet>
    </div>
  );
}
