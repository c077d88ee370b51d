/**
 * `#/admin/mail` (admins): whether this installation sends e-mail (and, when it does not, the
 * settings that turn it on), through which server and from which address, the outbox's counts, a
 * test message (to the admin's own address unless another is typed), and the messages written,
 * newest first, with their attempts and last error.
 */
import { Button, Toast } from 'antd-mobile';
import { MailOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountKind } from '@pa/shared/rules';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useMe } from '@/lib/session';
import { useMailMessages, useMailSettings, useSendTestMail, type MailMessage, type MailSettings } from '../api/mail';
import '@/components/desk.css';
import '../components/mail.css';

const SETTINGS = ['SMTP_URL', 'MAIL_FROM', 'PUBLIC_URL'] as const;

function Status({ settings }: { settings: MailSettings }) {
  const { t, i18n } = useTranslation();
  const counts = (['pending', 'sent', 'failed'] as const).map((k) => ({ key: k, value: settings.counts[k] }));
  return (
    <section className="card mail-status" data-testid="mail-status">
      <div className="mail-status-head">
        <h2>{t('mailAdmin.status.title')}</h2>
        <span className={`mail-tag mail-tag-${settings.enabled ? 'on' : 'off'}`} data-testid="mail-enabled">{t(settings.enabled ? 'mailAdmin.status.on' : 'mailAdmin.status.off')}</span>
      </div>
      {settings.enabled ? (
        <dl className="mail-facts">
          <div><dt>{t('mailAdmin.status.server')}</dt><dd><code>{settings.server ?? '—'}</code></dd></div>
          <div><dt>{t('mailAdmin.status.from')}</dt><dd>{settings.from ?? '—'}</dd></div>
          <div><dt>{t('mailAdmin.status.publicUrl')}</dt><dd><code>{settings.publicUrl ?? '—'}</code></dd></div>
        </dl>
      ) : (
        <div className="mail-off" data-testid="mail-off">
          <p className="notice">{t('mailAdmin.status.offBody')}</p>
          <p className="mail-off-lead">{t('mailAdmin.status.howTo')}</p>
          <ul className="mail-vars">
            {SETTINGS.map((name) => (
              <li key={name}><code>{name}</code><span>{t(`mailAdmin.vars.${name}`)}</span></li>
            ))}
          </ul>
          <p className="hint">{t('mailAdmin.status.docs')}</p>
        </div>
      )}
      <div className="mail-counts">
        {counts.map((c) => (
          <div key={c.key} className={`mail-count mail-count-${c.key}${c.value > 0 ? ' mail-count-some' : ''}`} data-testid={`mail-count-${c.key}`}>
            <span className="mail-count-value">{formatNumber(c.value, i18n.language)}</span>
            <span className="mail-count-label">{t(`mailAdmin.counts.${c.key}`)}</span>
          </div>
        ))}
      </div>
    </section>
  );
}

function TestForm({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const me = useMe();
  const own = me.data && accountKind(me.data.account) === 'email' ? me.data.account : '';
  const send = useSendTestMail();
  const [to, setTo] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const value = to ?? own;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const address = value.trim();
    if (address && accountKind(address) !== 'email') {
      setError('invalid');
      return;
    }
    if (!address && !own) {
      setError('required');
      return;
    }
    try {
      const { message } = await send.mutateAsync(address ? { to: address } : {});
      Toast.show({ icon: 'success', content: t('mailAdmin.test.queued', { to: message.to }) });
    } catch (e) {
      if (e instanceof ApiError && e.fields.to) setError(e.fields.to);
      setFormError(errorText(t, e));
    }
  };

  return (
    <form className="card mail-test" onSubmit={onSubmit} noValidate data-testid="mail-test-form">
      <h2>{t('mailAdmin.test.title')}</h2>
      <p className="hint mail-test-intro">{t(enabled ? 'mailAdmin.test.intro' : 'mailAdmin.test.off')}</p>
      {formError ? <p className="form-error mail-form-error" role="alert" data-testid="mail-test-error">{formError}</p> : null}
      <div className="mail-test-row">
        <Field id="mail-test-to" label={t('mailAdmin.test.to')} error={error} help={own ? t('mailAdmin.test.toHelp') : undefined}>
          <TextInput
            id="mail-test-to"
            data-testid="mail-test-to"
            value={value}
            onChange={(v) => { setTo(v); setError(undefined); }}
            invalid={!!error}
            type="email"
            inputMode="email"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={t('auth.accountPlaceholder')}
            disabled={!enabled}
          />
        </Field>
        <Button type="submit" color="primary" loading={send.isPending} disabled={!enabled || send.isPending} data-testid="mail-test-send">{t('mailAdmin.test.send')}</Button>
      </div>
    </form>
  );
}

function MessageStatus({ message }: { message: MailMessage }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="mail-status-cell">
      <span className={`mail-tag mail-tag-${message.status}`}>{t(`mailAdmin.messageStatus.${message.status}`)}</span>
      {message.status === 'pending' && message.nextAttemptAt !== null && message.attempts > 0
        ? <span className="data-table-sub data-table-nowrap">{t('mailAdmin.nextAttempt', { time: formatDateTime(message.nextAttemptAt, i18n.language) })}</span>
        : null}
    </span>
  );
}

/** An address that may wrap after its "@", never inside a word. */
function Address({ to }: { to: string }) {
  const at = to.indexOf('@');
  if (at <= 0) return <span className="mail-to">{to}</span>;
  return <span className="mail-to"><span className="mail-to-part">{to.slice(0, at)}</span><wbr /><span className="mail-to-part">{to.slice(at)}</span></span>;
}

const Template = ({ message }: { message: MailMessage }) => {
  const { t } = useTranslation();
  return (
    <span className="mail-template">
      <span>{t(`mailAdmin.templates.${message.template}`, { defaultValue: message.template })}</span>
      <code className="mail-code">{message.template}</code>
    </span>
  );
};

function Messages() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const messages = useMailMessages();
  const rows = messages.data?.pages.flatMap((p) => p.items) ?? [];
  const time = (m: MailMessage) => formatDateTime(m.sentAt ?? m.createdAt, i18n.language);
  const error = (m: MailMessage) => (m.lastError ? <code className="mail-error">{m.lastError}</code> : <span className="data-table-muted">—</span>);
  const empty = <EmptyState icon={<MailOutline />} title={t('mailAdmin.messages.empty')} body={t('mailAdmin.messages.emptyBody')} />;

  let list;
  if (desk) {
    const columns: Column<MailMessage>[] = [
      { key: 'to', title: t('mailAdmin.col.to'), sortValue: (m) => m.to, render: (m) => <Address to={m.to} /> },
      { key: 'subject', title: t('mailAdmin.col.subject'), render: (m) => <span className="desk-clip">{m.subject}</span> },
      { key: 'template', title: t('mailAdmin.col.template'), sortValue: (m) => m.template, render: (m) => <Template message={m} /> },
      { key: 'status', title: t('console.col.status'), sortValue: (m) => m.status, render: (m) => <><MessageStatus message={m} /><span className="data-table-sub data-table-nowrap">{t('mailAdmin.attempts', { count: m.attempts })}</span></> },
      { key: 'error', title: t('mailAdmin.col.error'), render: error },
      { key: 'time', title: t('mailAdmin.col.time'), sortValue: (m) => m.sentAt ?? m.createdAt, render: (m) => <span className="data-table-nowrap">{time(m)}</span> },
    ];
    list = messages.isError ? <PageError error={messages.error} onRetry={() => void messages.refetch()} /> : (
      <DataTable
        data-testid="mail-messages"
        caption={t('mailAdmin.messages.title')}
        rows={rows}
        rowKey={(m) => m.id}
        rowTestId={(m) => `mail-message-${m.id}`}
        columns={columns}
        loading={messages.isPending}
        pagination={messages}
        empty={empty}
      />
    );
  } else if (messages.isPending) {
    list = <PageLoading />;
  } else if (messages.isError) {
    list = <PageError error={messages.error} onRetry={() => void messages.refetch()} />;
  } else if (rows.length === 0) {
    list = empty;
  } else {
    list = (
      <>
        <ul className="mail-cards" data-testid="mail-messages">
          {rows.map((m) => (
            <li key={m.id} className="mail-card" data-testid={`mail-message-${m.id}`}>
              <div className="mail-card-head">
                <span className="mail-subject">{m.subject}</span>
                <MessageStatus message={m} />
              </div>
              <Address to={m.to} />
              <Template message={m} />
              <span className="mail-card-meta">{time(m)} · {t('mailAdmin.attempts', { count: m.attempts })}</span>
              {m.lastError ? error(m) : null}
            </li>
          ))}
        </ul>
        <LoadMore query={messages} />
      </>
    );
  }
  return (
    <section className="mail-messages" aria-labelledby="mail-messages-title">
      <div className="mail-section-head">
        <h2 id="mail-messages-title">{t('mailAdmin.messages.title')}</h2>
        <p className="hint">{t('mailAdmin.messages.hint')}</p>
      </div>
      {list}
    </section>
  );
}

export default function MailPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const settings = useMailSettings();
  let content;
  if (settings.isPending) content = <PageLoading />;
  else if (settings.isError) content = <PageError error={settings.error} onRetry={() => void settings.refetch()} />;
  else {
    content = (
      <>
        <div className="mail-top">
          <Status settings={settings.data} />
          <TestForm enabled={settings.data.enabled} />
        </div>
        <Messages />
      </>
    );
  }
  return (
    <div className={`sub-page mail-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('mailAdmin.title')} fallback="/me" />
      {content}
    </div>
  );
}
