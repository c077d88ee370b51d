/**
 * The webhook endpoint form (add and change: address, description, events grouped by object with
 * "all events"), and the signing secret shown once after adding an endpoint or rotating its secret.
 */
import { Button } from 'antd-mobile';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@pa/shared';
import { CopyField } from '@/components/copy-field';
import { Field, TextInput } from '@/components/field';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { useCreateWebhook, useUpdateWebhook, type WebhookEndpoint } from '../api/webhooks';
import { actionOf, groupEvents, ticked, toggle, type Ticked } from '../lib/webhook-events';
import './webhooks.css';

const URL_MAX = 2000;
const DESCRIPTION_MAX = 200;
const GROUPS = groupEvents();

/** A checkbox that can show "some" (indeterminate), for a group and for "all events". */
function TriCheckbox({ state, onChange, testId }: { state: Ticked; onChange: (on: boolean) => void; testId: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return <input ref={ref} type="checkbox" checked={state === 'all'} onChange={() => onChange(state !== 'all')} data-testid={testId} />;
}

/** The event's name in words, with its code. */
export function EventName({ event }: { event: string }) {
  const { t } = useTranslation();
  return (
    <span className="webhook-event">
      <span>{t(`webhooksAdmin.events.${event.slice(0, event.indexOf('.'))}.${actionOf(event)}`, { defaultValue: event })}</span>
      <code className="webhook-code">{event}</code>
    </span>
  );
}

function EventsField({ value, onChange, error }: { value: WebhookEventType[]; onChange: (v: WebhookEventType[]) => void; error?: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className={`webhook-events field${error ? ' field-invalid' : ''}`} aria-describedby={error ? 'webhook-events-msg' : undefined} data-testid="webhook-events">
      <legend className="console-field-label">{t('webhooksAdmin.form.events')}</legend>
      <label className="check-row webhook-all">
        <TriCheckbox state={ticked(value, WEBHOOK_EVENT_TYPES)} onChange={(on) => onChange(toggle(value, WEBHOOK_EVENT_TYPES, on))} testId="webhook-events-all" />
        <span>{t('webhooksAdmin.form.allEvents', { count: WEBHOOK_EVENT_TYPES.length })}</span>
      </label>
      <div className="webhook-groups">
        {GROUPS.map((group) => (
          <div key={group.object} className="webhook-group" role="group" aria-labelledby={`webhook-group-${group.object}`}>
            <label className="check-row webhook-group-head">
              <TriCheckbox state={ticked(value, group.events)} onChange={(on) => onChange(toggle(value, group.events, on))} testId={`webhook-group-${group.object}`} />
              <span id={`webhook-group-${group.object}`}>{t(`webhooksAdmin.objects.${group.object}`)}</span>
            </label>
            {group.events.map((event) => (
              <label key={event} className="check-row webhook-event-row">
                <input type="checkbox" checked={value.includes(event)} onChange={(e) => onChange(toggle(value, [event], e.target.checked))} data-testid={`webhook-event-${event}`} />
                <EventName event={event} />
              </label>
            ))}
          </div>
        ))}
      </div>
      {error ? <p className="field-error" id="webhook-events-msg">{t('webhooksAdmin.form.eventsRequired')}</p> : null}
    </fieldset>
  );
}

/** Adds an endpoint (`endpoint` absent) or changes one; hands the answer up (with the secret when added). */
export function WebhookForm({ endpoint, onSaved, onCancel }: {
  endpoint?: WebhookEndpoint;
  onSaved: (saved: { endpoint: WebhookEndpoint; secret?: string }) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.events ?? []);
  const [errors, setErrors] = useState<{ url?: string; events?: string; description?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found = { url: url.trim() ? undefined : 'required', events: events.length ? undefined : 'required' };
    setErrors(found);
    if (found.url || found.events || pending) return;
    try {
      if (endpoint) {
        const { endpoint: saved } = await update.mutateAsync({ id: endpoint.id, url: url.trim(), events, description: description.trim() || null });
        onSaved({ endpoint: saved });
      } else {
        onSaved(await create.mutateAsync({ url: url.trim(), events, description: description.trim() || undefined }));
      }
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setErrors({ url: error.fields.url, events: error.fields.events, description: error.fields.description });
        // The form may be scrolled to its buttons: bring the address, where the problem usually is, into view.
        if (error.fields.url) document.getElementById('webhook-url')?.focus();
      }
      setFormError(errorText(t, error));
    }
  };

  // The address's codes say what is wrong with it here: not a URL, or one the outbound policy refuses.
  const urlError = errors.url ? t(`webhooksAdmin.form.urlErrors.${errors.url}`, { defaultValue: t(`fields.${errors.url}`, { defaultValue: t('fields.invalid') }) }) : undefined;
  return (
    <form className="staff-form webhook-form" onSubmit={onSubmit} noValidate data-testid="webhook-form">
      <h2 id="webhook-form-title" className="staff-title">{t(endpoint ? 'webhooksAdmin.form.editTitle' : 'webhooksAdmin.form.addTitle')}</h2>
      <p className="staff-intro">{t('webhooksAdmin.form.intro')}</p>
      {formError ? <p className="form-error staff-error" role="alert" data-testid="webhook-form-error">{formError}</p> : null}
      <Field id="webhook-url" label={t('webhooksAdmin.form.url')} errorText={urlError} help={t('webhooksAdmin.form.urlHelp')}>
        <TextInput
          id="webhook-url"
          data-testid="webhook-url"
          value={url}
          onChange={(v) => { setUrl(v); if (errors.url) setErrors((e) => ({ ...e, url: undefined })); }}
          invalid={!!errors.url}
          maxLength={URL_MAX}
          type="url"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="https://example.com/webhooks"
        />
      </Field>
      <Field id="webhook-description" label={t('webhooksAdmin.form.description')} error={errors.description} help={t('webhooksAdmin.form.descriptionHelp')}>
        <TextInput id="webhook-description" data-testid="webhook-description" value={description} onChange={setDescription} maxLength={DESCRIPTION_MAX} autoComplete="off" />
      </Field>
      <EventsField value={events} onChange={(v) => { setEvents(v); if (errors.events) setErrors((e) => ({ ...e, events: undefined })); }} error={errors.events} />
      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onCancel} disabled={pending}>{t('app.cancel')}</Button>
        <Button type="submit" color="primary" loading={pending} disabled={pending} data-testid="webhook-submit">{t(endpoint ? 'app.save' : 'webhooksAdmin.form.add')}</Button>
      </div>
    </form>
  );
}

/** The signing secret, shown once: after adding an endpoint, or after rotating its secret. */
export function WebhookSecret({ endpoint, secret, rotated, onDone }: { endpoint: WebhookEndpoint; secret: string; rotated: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="webhook-secret" data-testid="webhook-secret-card">
      <h2 id="webhook-secret-title" className="staff-title">{t(rotated ? 'webhooksAdmin.secret.rotatedTitle' : 'webhooksAdmin.secret.title')}</h2>
      <p className="staff-intro webhook-secret-url">{endpoint.url}</p>
      <CopyField label={t('webhooksAdmin.secret.label')} value={secret} buttonLabel={t('app.copy')} testId="webhook-secret" />
      <p className="notice staff-once" role="alert">{t('webhooksAdmin.secret.once')}</p>
      {rotated ? <p className="hint">{t('webhooksAdmin.secret.previous')}</p> : <p className="hint">{t('webhooksAdmin.secret.verify')}</p>}
      <div className="staff-actions">
        <Button color="primary" onClick={onDone} data-testid="webhook-secret-done">{t('webhooksAdmin.secret.done')}</Button>
      </div>
    </section>
  );
}
