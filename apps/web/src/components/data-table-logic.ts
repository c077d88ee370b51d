/**
 * The data table's decisions, apart from React so they are tested on their own: how a header
 * click moves the sort, how loaded rows are ordered by a column's value, what the header
 * checkbox does and shows, and what a key pressed on a row means.
 */
export type SortDir = 'asc' | 'desc';
export interface SortState { key: string; dir: SortDir }
type SortValue = string | number | null;

/** A header click: none → ascending → descending → none; another column starts at ascending. */
export function nextSort(current: SortState | null | undefined, key: string): SortState | null {
  if (!current || current.key !== key) return { key, dir: 'asc' };
  return current.dir === 'asc' ? { key, dir: 'desc' } : null;
}

/** The header's aria-sort for a column under the current sort. */
export function ariaSort(current: SortState | null | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (!current || current.key !== key) return 'none';
  return current.dir === 'asc' ? 'ascending' : 'descending';
}

/**
 * The rows ordered by `value` (a stable sort: equal values keep the order the server gave).
 * Empty values (null, '') come last whichever the direction; text compares the reader's way
 * (numbers inside text by their value, case and accents second).
 */
export function sortRows<Row>(rows: readonly Row[], value: (row: Row) => SortValue, dir: SortDir, locale?: string): Row[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const sign = dir === 'asc' ? 1 : -1;
  const empty = (v: SortValue) => v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));
  return rows
    .map((row, index) => ({ row, index, v: value(row) }))
    .sort((a, b) => {
      const ae = empty(a.v);
      const be = empty(b.v);
      if (ae || be) return ae === be ? a.index - b.index : ae ? 1 : -1;
      const cmp = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : collator.compare(String(a.v), String(b.v));
      return cmp === 0 ? a.index - b.index : sign * cmp;
    })
    .map((e) => e.row);
}

/** The selected keys that are still on screen and selectable (a refresh may have moved some out). */
export function effectiveSelection(selected: readonly string[], selectableKeys: readonly string[]): string[] {
  const present = new Set(selectableKeys);
  return selected.filter((k) => present.has(k));
}

/** The header checkbox: checked when every loaded selectable row is, mixed when some are. */
export function headerCheckState(selected: readonly string[], selectableKeys: readonly string[]): 'none' | 'some' | 'all' {
  const n = effectiveSelection(selected, selectableKeys).length;
  if (n === 0 || selectableKeys.length === 0) return 'none';
  return n === selectableKeys.length ? 'all' : 'some';
}

/** Clicking the header checkbox: all loaded selectable rows, or none of them when all were. */
export function toggleAll(selected: readonly string[], selectableKeys: readonly string[]): string[] {
  if (headerCheckState(selected, selectableKeys) === 'all') {
    const loaded = new Set(selectableKeys);
    return selected.filter((k) => !loaded.has(k));
  }
  return [...new Set([...selected, ...selectableKeys])];
}

/** One row's checkbox. */
export function toggleOne(selected: readonly string[], key: string, on: boolean): string[] {
  const rest = selected.filter((k) => k !== key);
  return on ? [...rest, key] : rest;
}

type RowKeyAction = 'open' | 'next' | 'prev' | 'first' | 'last';

/** A key pressed on a focused row: Enter or Space opens it, the arrows, Home and End move between rows. */
export function rowKeyAction(key: string): RowKeyAction | null {
  switch (key) {
    case 'Enter':
    case ' ':
      return 'open';
    case 'ArrowDown':
      return 'next';
    case 'ArrowUp':
      return 'prev';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}

/** The row index focus moves to, kept inside the table. */
export function moveFocus(action: Exclude<RowKeyAction, 'open'>, index: number, count: number): number {
  if (count === 0) return -1;
  if (action === 'first') return 0;
  if (action === 'last') return count - 1;
  return Math.min(count - 1, Math.max(0, index + (action === 'next' ? 1 : -1)));
}
