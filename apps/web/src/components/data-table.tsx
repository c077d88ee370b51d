/**
 * The staff console's data table at desk width (≥ 1024 px). Pages render it when `useDesk()` is
 * true and their phone cards otherwise. A real <table> (header cells with scope and aria-sort),
 * its header sticky inside a box that also scrolls sideways, so a wide table never widens the page.
 * Sorting is the server's when the page passes `onSortChange`, else over the loaded rows by each
 * column's `sortValue`. Rows with `onRowClick` are reachable by keyboard: Tab to the first, the
 * arrows, Home and End between rows, Enter or Space opens one. Selection (checkboxes, the header
 * one for every loaded selectable row) shows "n selected" with the page's bulk actions.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ariaSort, effectiveSelection, headerCheckState, moveFocus, nextSort, rowKeyAction, sortRows, toggleAll, toggleOne,
  type SortState,
} from './data-table-logic';
import './data-table.css';

export type { SortDir, SortState } from './data-table-logic';

export interface Column<Row> {
  key: string;
  title: ReactNode;
  render: (row: Row) => ReactNode;
  /** Sortable: by the server when the table is given `onSortChange`, else over the loaded rows by this value. */
  sortValue?: (row: Row) => string | number | null;
  sortable?: boolean;
  align?: 'start' | 'end';
  /** CSS width, e.g. '12rem' or '20%'. */
  width?: string;
  /**
   * 'low': a column the table drops when its box is narrow (the smallest desk, 1024 px), so the
   * rest, the actions above all, fit without scrolling sideways. What it shows must be found
   * elsewhere too (the row's page, the export). 'lowest': dropped first, already when the box is
   * below 1000 px (a 1280 px desk leaves the table about 950), for a table whose columns would not
   * fit there otherwise.
   */
  priority?: 'low' | 'lowest';
}

export interface DataTableProps<Row> {
  rows: Row[];
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
  /** Server-side sorting: the current sort and how to change it. Without it, sorting is over the loaded rows. */
  sort?: SortState | null;
  onSortChange?: (sort: SortState | null) => void;
  /** Row selection for bulk actions: the selected keys and the toolbar shown while some are selected. */
  selected?: string[];
  onSelectedChange?: (keys: string[]) => void;
  /** Whether a row can be selected (e.g. only pending ones); default all. */
  selectable?: (row: Row) => boolean;
  bulkActions?: (keys: string[]) => ReactNode;
  /** Filters and the export button, above the table. */
  toolbar?: ReactNode;
  onRowClick?: (row: Row) => void;
  /** Cursor pagination (TanStack infinite query shape), shown as "Load more" under the table. */
  pagination?: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  loading?: boolean;
  empty?: ReactNode;
  'data-testid'?: string;
  /** What the table lists, for assistive technology (its caption, visually hidden). */
  caption?: string;
  /** A label naming one row for its checkbox ("Select Jane Doe"); default the row's key. */
  rowLabel?: (row: Row) => string;
  /** data-testid of each row; default `row-<key>`. */
  rowTestId?: (row: Row) => string;
  /** Sort over the loaded rows at first (without `onSortChange`). */
  initialSort?: SortState | null;
}

/** A cell's classes: its alignment, and whether it is dropped when the table is narrow. */
const cellClass = <Row,>(c: Column<Row>) => [c.align === 'end' ? 'data-table-end' : '', c.priority === 'low' ? 'data-table-low' : c.priority === 'lowest' ? 'data-table-low data-table-lowest' : '', c.key === 'actions' ? 'data-table-actions-cell' : ''].filter(Boolean).join(' ') || undefined;

/** Whether a click landed on something of its own inside the row (a checkbox, button or link). */
const ownControl = (target: EventTarget | null, row: Element) => {
  const el = target instanceof Element ? target.closest('a, button, input, label, select, textarea, [role="button"]') : null;
  return el !== null && row.contains(el) && el !== row;
};

function HeaderCheckbox({ state, onChange, label }: { state: 'none' | 'some' | 'all'; onChange: () => void; label: string }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <label className="data-table-check-label">
      <input ref={ref} type="checkbox" checked={state === 'all'} onChange={onChange} aria-label={label} data-testid="data-table-select-all" />
    </label>
  );
}

export function DataTable<Row>(props: DataTableProps<Row>): ReactNode {
  const { rows, rowKey, columns, onSortChange, onSelectedChange, selectable, bulkActions, toolbar, onRowClick, pagination, loading, empty } = props;
  const { t, i18n } = useTranslation();
  const [localSort, setLocalSort] = useState<SortState | null>(props.initialSort ?? null);
  const server = onSortChange !== undefined;
  const sort = server ? (props.sort ?? null) : localSort;
  const canSort = (c: Column<Row>) => (c.sortable ?? c.sortValue !== undefined) && (server || c.sortValue !== undefined);
  const sortColumn = sort ? columns.find((c) => c.key === sort.key) : undefined;
  const shown = !server && sort && sortColumn?.sortValue ? sortRows(rows, sortColumn.sortValue, sort.dir, i18n.language) : rows;

  const selecting = onSelectedChange !== undefined;
  const selected = props.selected ?? [];
  const selectableKeys = selecting ? rows.filter((r) => (selectable ? selectable(r) : true)).map(rowKey) : [];
  const chosen = effectiveSelection(selected, selectableKeys);
  const headerState = headerCheckState(selected, selectableKeys);
  const width = columns.length + (selecting ? 1 : 0);

  const changeSort = (key: string) => {
    const next = nextSort(sort, key);
    if (server) onSortChange(next);
    else setLocalSort(next);
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: Row) => {
    if (event.target !== event.currentTarget) return; // keys typed in a control of the row are its own
    const action = rowKeyAction(event.key);
    if (!action) return;
    event.preventDefault();
    if (action === 'open') {
      onRowClick?.(row);
      return;
    }
    const all = Array.from(event.currentTarget.parentElement?.querySelectorAll<HTMLTableRowElement>(':scope > tr[data-row]') ?? []);
    all[moveFocus(action, all.indexOf(event.currentTarget), all.length)]?.focus();
  };

  const onRowMouse = (event: MouseEvent<HTMLTableRowElement>, row: Row) => {
    if (ownControl(event.target, event.currentTarget)) return;
    onRowClick?.(row);
  };

  let body: ReactNode;
  if (loading) {
    body = (
      <tr className="data-table-state-row">
        <td colSpan={width}>
          <span className="data-table-loading" role="status"><span className="data-table-spinner" aria-hidden />{t('app.loading')}</span>
        </td>
      </tr>
    );
  } else if (shown.length === 0) {
    body = <tr className="data-table-state-row"><td colSpan={width} data-testid="data-table-empty">{empty ?? <p className="data-table-empty-text">{t('console.table.empty')}</p>}</td></tr>;
  } else {
    body = shown.map((row) => {
      const key = rowKey(row);
      const canSelect = selecting && (selectable ? selectable(row) : true);
      const isSelected = canSelect && selected.includes(key);
      const label = props.rowLabel ? props.rowLabel(row) : key;
      return (
        <tr
          key={key}
          data-row=""
          data-testid={props.rowTestId ? props.rowTestId(row) : `row-${key}`}
          className={`${onRowClick ? 'data-table-clickable' : ''}${isSelected ? ' data-table-selected' : ''}`.trim() || undefined}
          tabIndex={onRowClick ? 0 : undefined}
          aria-selected={selecting ? isSelected : undefined}
          onClick={onRowClick ? (e) => onRowMouse(e, row) : undefined}
          onKeyDown={onRowClick ? (e) => onRowKeyDown(e, row) : undefined}
        >
          {selecting ? (
            <td className="data-table-check">
              {canSelect ? (
                <label className="data-table-check-label">
                  <input type="checkbox" checked={isSelected} onChange={(e) => onSelectedChange(toggleOne(selected, key, e.target.checked))} aria-label={t('console.table.selectRow', { name: label })} data-testid={`data-table-select-${key}`} />
                </label>
              ) : null}
            </td>
          ) : null}
          {columns.map((c) => <td key={c.key} className={cellClass(c)}>{c.render(row)}</td>)}
        </tr>
      );
    });
  }

  return (
    <div className="dt">
      {toolbar ? <div className="data-table-toolbar">{toolbar}</div> : null}
      {selecting && chosen.length > 0 ? (
        <div className="data-table-bulk" role="region" aria-label={t('console.table.bulk')} data-testid="data-table-bulk">
          <span className="data-table-bulk-count" aria-live="polite" data-testid="data-table-selected-count">{t('console.table.selected', { count: chosen.length })}</span>
          <div className="data-table-bulk-actions">{bulkActions?.(chosen)}</div>
          <button type="button" className="data-table-bulk-clear" onClick={() => onSelectedChange(selected.filter((k) => !chosen.includes(k)))} data-testid="data-table-clear-selection">
            {t('console.table.clearSelection')}
          </button>
        </div>
      ) : null}
      <div className="data-table-scroll">
        <table className="data-table" data-testid={props['data-testid']} aria-busy={loading ? true : undefined}>
          {props.caption ? <caption className="visually-hidden">{props.caption}</caption> : null}
          <thead>
            <tr>
              {selecting ? (
                <th scope="col" className="data-table-check">
                  {selectableKeys.length > 0 ? <HeaderCheckbox state={headerState} onChange={() => onSelectedChange(toggleAll(selected, selectableKeys))} label={t('console.table.selectAll')} /> : null}
                </th>
              ) : null}
              {columns.map((c) => {
                const sortable = canSort(c);
                const dir = ariaSort(sort, c.key);
                return (
                  <th key={c.key} scope="col" aria-sort={sortable ? dir : undefined} className={cellClass(c)} style={c.width ? { width: c.width } : undefined}>
                    {sortable ? (
                      <button type="button" className={`data-table-sort data-table-sort-${dir}`} onClick={() => changeSort(c.key)} data-testid={`data-table-sort-${c.key}`}>
                        <span className="data-table-sort-title">{c.title}</span>
                        <span className="data-table-sort-mark" aria-hidden>{dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '↕'}</span>
                      </button>
                    ) : c.title}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>
      {pagination && !loading && pagination.hasNextPage ? (
        // As components/load-more.tsx (same test id), without the phone UI kit: the table stays light.
        <div className="load-more">
          <button type="button" className="data-table-load-more" disabled={pagination.isFetchingNextPage} aria-busy={pagination.isFetchingNextPage} onClick={() => void pagination.fetchNextPage()} data-testid="load-more">
            {pagination.isFetchingNextPage ? <span className="data-table-spinner" aria-hidden /> : null}
            {t('app.loadMore')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
