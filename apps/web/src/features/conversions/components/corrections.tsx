/**
 * The corrections staff make (docs/rewards.md "Corrections"): a promoter picked by name, account or
 * code, the reason every correction needs, and the sheets that assign a conversion, reverse a
 * commission and end or move a customer binding. Errors are shown by catalogue code in the
 * reader's language; the caller refreshes what changed (the mutations invalidate the lists).
 */
import { Button, Toast } from 'antd-mobile';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextArea } from '@/components/form-field';
import { Sheet } from '@/components/sheet';
import { errorText } from '@/lib/errors';
import { usePromoterSearch } from '../api/conversions';
import './corrections.css';

const REASON_MAX = 500;
const Q_MAX = 100;

export interface PickedPromoter { id: string; name: string }

/**
 * Finds a promoter to credit: typing searches the console's promoters (name or account, contains;
 * an invite, link or coupon code, exactly), among the campaign's when one is given; one choice.
 */
export function PromoterPicker({ campaignId, exclude, anyStatus, value, onChange }: { campaignId?: string | undefined; exclude?: string | null | undefined; anyStatus?: boolean; value: PickedPromoter | null; onChange: (p: PickedPromoter | null) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const q = text.trim();
  const [shown, setShown] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setShown(q), 300);
    return () => window.clearTimeout(timer);
  }, [q]);
  const found = usePromoterSearch(shown, campaignId ?? null, anyStatus ?? false);
  const rows = (found.data ?? []).filter((p) => p.id !== exclude).slice(0, 8);
  return (
    <div className="corr-field">
      <label htmlFor="corr-promoter-q">{t('corrections.promoter.label')}</label>
      <input
        id="corr-promoter-q"
        className="corr-input"
        type="search"
        value={text}
        maxLength={Q_MAX}
        autoComplete="off"
        placeholder={t('corrections.promoter.placeholder')}
        onChange={(e) => setText(e.target.value)}
        data-testid="corr-promoter-search"
      />
      <p className="field-help">{campaignId ? t('corrections.promoter.helpCampaign') : anyStatus ? t('corrections.promoter.helpAny') : t('corrections.promoter.help')}</p>
      <div className="corr-choices" role="radiogroup" aria-label={t('corrections.promoter.label')} data-testid="corr-promoter-choices">
        {found.isPending ? <p className="hint">{t('corrections.promoter.searching')}</p> : rows.length === 0 ? <p className="hint" data-testid="corr-promoter-none">{t('corrections.promoter.none')}</p> : rows.map((p) => (
          <label key={p.id} className={`corr-choice${value?.id === p.id ? ' is-on' : ''}`} data-testid={`corr-promoter-${p.id}`}>
            <input type="radio" name="corr-promoter" value={p.id} checked={value?.id === p.id} onChange={() => onChange({ id: p.id, name: p.displayName })} />
            <span className="corr-choice-text">
              <span className="corr-choice-name">{p.displayName}</span>
              <span className="corr-choice-meta">{p.account}</span>
            </span>
          </label>
        ))}
      </div>
    </div>
  );
}

/** The reason: kept in the audit log and shown to the promoter it concerns. */
export function ReasonField({ value, onChange, missing }: { value: string; onChange: (v: string) => void; missing: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={`field corr-field${missing ? ' field-invalid' : ''}`}>
      <label htmlFor="corr-reason">{t('corrections.reason.label')}</label>
      <TextArea id="corr-reason" data-testid="corr-reason" rows={3} value={value} maxLength={REASON_MAX} placeholder={t('corrections.reason.placeholder')} invalid={missing} onChange={onChange} />
      {missing ? <p className="field-error" data-testid="corr-reason-error">{t('corrections.reason.required')}</p> : <p className="field-help">{t('corrections.reason.help')}</p>}
    </div>
  );
}

/**
 * One correction's sheet: title, what it does, the fields, then Cancel and the action. `run` gets
 * the reason (and the promoter when `pickPromoter`); a refusal stays on the sheet as a toast.
 */
export function CorrectionSheet({ id, visible, title, intro, warning, action, danger, pickPromoter, onClose, run }: {
  id: string;
  visible: boolean;
  title: string;
  intro: ReactNode;
  warning?: ReactNode;
  action: string;
  danger?: boolean;
  /** Asks for a promoter too (assign, move): their search, among the campaign's when given. */
  pickPromoter?: { campaignId?: string | undefined; exclude?: string | null | undefined } | undefined;
  onClose: () => void;
  run: (input: { reason: string; promoter: PickedPromoter | null }) => Promise<void>;
}) {
  return (
    <Sheet visible={visible} onClose={onClose} labelledBy={`${id}-title`}>
      {visible ? <CorrectionForm id={id} title={title} intro={intro} warning={warning} action={action} danger={danger} pickPromoter={pickPromoter} onClose={onClose} run={run} /> : null}
    </Sheet>
  );
}

function CorrectionForm({ id, title, intro, warning, action, danger, pickPromoter, onClose, run }: Omit<Parameters<typeof CorrectionSheet>[0], 'visible'>) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [promoter, setPromoter] = useState<PickedPromoter | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    if (pickPromoter && !promoter) return;
    setBusy(true);
    try {
      await run({ reason: reason.trim(), promoter });
      onClose();
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="staff-form corr-form" onSubmit={onSubmit} noValidate data-testid={id}>
      <h2 id={`${id}-title`} className="staff-title">{title}</h2>
      <p className="staff-intro">{intro}</p>
      {warning ? <p className="corr-warning" role="note" data-testid={`${id}-warning`}>{warning}</p> : null}
      {pickPromoter ? <PromoterPicker campaignId={pickPromoter.campaignId} exclude={pickPromoter.exclude} value={promoter} onChange={setPromoter} /> : null}
      <ReasonField value={reason} missing={missing} onChange={(v) => { setReason(v); if (missing && v.trim()) setMissing(false); }} />
      <div className="staff-actions">
        <Button type="button" fill="outline" onClick={onClose} disabled={busy}>{t('app.cancel')}</Button>
        <Button type="submit" color={danger ? 'danger' : 'primary'} loading={busy} disabled={busy || (pickPromoter !== undefined && !promoter)} data-testid={`${id}-submit`}>{action}</Button>
      </div>
    </form>
  );
}

/**
 * A list's promoter filter: the chosen promoter as a chip that clears it, else a button that opens
 * the promoter search.
 */
export function PromoterFilter({ id, name, onChange, testId }: { id: string | null; name: string | null; onChange: (p: PickedPromoter | null) => void; testId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<PickedPromoter | null>(null);
  return (
    <div className="corr-filter">
      <span className="corr-filter-label" id={`${testId}-label`}>{t('corrections.filter.promoter')}</span>
      {id ? (
        <button type="button" className="corr-chip" aria-describedby={`${testId}-label`} aria-label={t('corrections.filter.clearPromoter', { name: name ?? id })} onClick={() => onChange(null)} data-testid={`${testId}-clear`}>
          <span>{name ?? id}</span><span aria-hidden>×</span>
        </button>
      ) : (
        <button type="button" className="corr-chip" aria-describedby={`${testId}-label`} onClick={() => { setPicked(null); setOpen(true); }} data-testid={testId}>
          <span>{t('corrections.filter.anyPromoter')}</span>
        </button>
      )}
      <Sheet visible={open} onClose={() => setOpen(false)} labelledBy={`${testId}-title`}>
        {open ? (
          <form className="staff-form corr-form" onSubmit={(e) => { e.preventDefault(); if (picked) { onChange(picked); setOpen(false); } }}>
            <h2 id={`${testId}-title`} className="staff-title">{t('corrections.filter.promoterTitle')}</h2>
            <PromoterPicker anyStatus value={picked} onChange={setPicked} />
            <div className="staff-actions">
              <Button type="button" fill="outline" onClick={() => setOpen(false)}>{t('app.cancel')}</Button>
              <Button type="submit" color="primary" disabled={!picked} data-testid={`${testId}-apply`}>{t('corrections.filter.apply')}</Button>
            </div>
          </form>
        ) : null}
      </Sheet>
    </div>
  );
}
