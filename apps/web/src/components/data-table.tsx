/**
 * CONTRACT STUB (issue 14, being implemented by the desk-shell work): the staff console's data
 * table at desk width (≥ 1024 px). Pages render it when `useDesk()` is true and their phone cards
 * otherwise. The props below are the agreed interface; the implementation may grow, not change them.
 */
import type { ReactNode } from 'react';

export type SortDir = 'asc' | 'desc';
export interface SortState { key: string; dir: SortDir }

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
}

export function DataTable<Row>(props: DataTableProps<Row>): ReactNode {
  const { rows, rowKey, columns } = props;
  return (
    <table className="data-table" data-testid={props['data-testid']}>
      <thead><tr>{columns.map((c) => <th key={c.key}>{c.title}</th>)}</tr></thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}>
            {columns.map((c) => <td key={c.key}>{c.render(row)}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
