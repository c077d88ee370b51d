/**
 * The pieces of a console list's toolbar at desk width: a status filter (the phone's tabs become
 * one group of toggle buttons), the CSV export of every row the filters match, and bulk buttons.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errors';
import './data-table.css';
import './desk.css';

interface FilterOption<T extends string> { value: T; label: string }

export function StatusFilter<T extends string>({ label, value, options, onChange, testId = 'desk-filter' }: {
  label: string;
  value: T;
  options: FilterOption<T>[];
  onChange: (value: T) => void;
  testId?: string;
}) {
  return (
    <div className="desk-filter" role="group" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button key={o.value} type="button" className={`desk-filter-option${o.value === value ? ' desk-filter-on' : ''}`} aria-pressed={o.value === value} onClick={() => onChange(o.value)} data-testid={`${testId}-${o.value}`}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Exports every row the current filters match (`run` walks the pages and downloads the file,
 * reporting rows as they arrive) and says how many went into the file.
 */
export function ExportButton({ run, testId = 'desk-export' }: { run: (onProgress: (rows: number) => void) => Promise<number>; testId?: string }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const start = async () => {
    setProgress(0);
    try {
      const count = await run(setProgress);
      Toast.show({ icon: 'success', content: t('console.export.done', { count }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setProgress(null);
    }
  };
  return (
    <span title={t('console.export.help')}>
      <Button className="desk-export" fill="outline" color="primary" disabled={progress !== null} onClick={() => void start()} data-testid={testId}>
        <span className="desk-export-label">
          <DownlandOutline aria-hidden />
          {progress === null ? t('console.export.button') : t('console.export.progress', { count: progress })}
        </span>
      </Button>
    </span>
  );
}

/** The toolbar's layout: filters on the start side, actions (export, new) on the end side. */
export function DeskToolbar({ filters, actions }: { filters?: ReactNode; actions?: ReactNode }) {
  return (
    <>
      <div className="desk-toolbar-filters">{filters}</div>
      <div className="desk-toolbar-actions">{actions}</div>
    </>
  );
}

/**
 * Runs one call per selected row in turn (lists without a bulk endpoint) and sums the outcome:
 * how many changed and, of those refused, the first reason.
 */
async function eachSelected(ids: string[], call: (id: string) => Promise<unknown>): Promise<{ done: number; failed: number; firstError: unknown }> {
  let done = 0;
  let failed = 0;
  let firstError: unknown = null;
  for (const id of ids) {
    try {
      await call(id);
      done += 1;
    } catch (error) {
      failed += 1;
      firstError ??= error;
    }
  }
  return { done, failed, firstError };
}

/** The toast after a bulk run. */
function useBulkToast() {
  const { t } = useTranslation();
  return ({ done, failed, firstError }: { done: number; failed: number; firstError: unknown }) => {
    if (failed === 0) Toast.show({ icon: 'success', content: t('console.bulk.done', { done }) });
    else Toast.show({ content: t('console.bulk.partial', { done, failed, reason: errorText(t, firstError) }) });
  };
}

/**
 * A desk table's selection and the bulk run over it: one call per selected row, the toast with
 * the outcome, then the selection cleared; `busy` while it runs.
 */
export function useBulkRun() {
  const bulkToast = useBulkToast();
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const runEach = async (ids: string[], call: (id: string) => Promise<unknown>) => {
    setBusy(true);
    bulkToast(await eachSelected(ids, call));
    setSelected([]);
    setBusy(false);
  };
  return { selected, setSelected, busy, runEach };
}

type BulkDecision = 'approve' | 'reject';

/**
 * Approve or reject every selected row (registrations, join requests): `bulkActions` gives the
 * table's two bulk buttons; rejecting many asks first, its button saying `rejectLabel`.
 */
export function useApproveRejectBulk(call: (id: string, action: BulkDecision) => Promise<unknown>, rejectLabel: string) {
  const { t } = useTranslation();
  const { runEach, ...bulk } = useBulkRun();
  const runMany = async (ids: string[], action: BulkDecision) => {
    if (action === 'reject' && !(await Dialog.confirm({ content: t('console.bulk.confirmReject', { count: ids.length }), confirmText: rejectLabel, cancelText: t('app.cancel') }))) return;
    await runEach(ids, (id) => call(id, action));
  };
  const bulkActions = (ids: string[]) => (
    <>
      <Button size="small" color="primary" loading={bulk.busy} disabled={bulk.busy} onClick={() => void runMany(ids, 'approve')} data-testid="bulk-approve">{t('console.bulk.approve', { count: ids.length })}</Button>
      <Button size="small" color="danger" fill="outline" disabled={bulk.busy} onClick={() => void runMany(ids, 'reject')} data-testid="bulk-reject">{t('console.bulk.reject', { count: ids.length })}</Button>
    </>
  );
  return { ...bulk, bulkActions };
}
