import i18next from 'i18next';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { DataTable, type Column, type DataTableProps } from '../src/components/data-table';
import {
  ariaSort, effectiveSelection, headerCheckState, moveFocus, nextSort, rowKeyAction, sortRows, toggleAll, toggleOne,
} from '../src/components/data-table-logic';
import { readTexts } from './texts';

interface Person { id: string; name: string; amount: number | null; status: 'pending' | 'active' }
const people: Person[] = [
  { id: 'a', name: 'émile', amount: 300, status: 'pending' },
  { id: 'b', name: 'Zoë', amount: null, status: 'active' },
  { id: 'c', name: 'adam 10', amount: 20, status: 'pending' },
  { id: 'd', name: 'adam 9', amount: 20, status: 'pending' },
];

describe('sorting', () => {
  it('a header click goes none → ascending → descending → none; another column starts ascending', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', dir: 'asc' });
    expect(nextSort({ key: 'name', dir: 'asc' }, 'name')).toEqual({ key: 'name', dir: 'desc' });
    expect(nextSort({ key: 'name', dir: 'desc' }, 'name')).toBeNull();
    expect(nextSort({ key: 'name', dir: 'desc' }, 'amount')).toEqual({ key: 'amount', dir: 'asc' });
    expect(ariaSort({ key: 'name', dir: 'desc' }, 'name')).toBe('descending');
    expect(ariaSort({ key: 'name', dir: 'asc' }, 'name')).toBe('ascending');
    expect(ariaSort({ key: 'name', dir: 'asc' }, 'amount')).toBe('none');
    expect(ariaSort(null, 'name')).toBe('none');
  });

  it('orders numbers by value, keeps equal ones in the server’s order and puts empty values last both ways', () => {
    expect(sortRows(people, (p) => p.amount, 'asc').map((p) => p.id)).toEqual(['c', 'd', 'a', 'b']);
    expect(sortRows(people, (p) => p.amount, 'desc').map((p) => p.id)).toEqual(['a', 'c', 'd', 'b']);
    // The input is left as it was.
    expect(people.map((p) => p.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('orders text the reader’s way: case and accents second, numbers inside text by value', () => {
    expect(sortRows(people, (p) => p.name, 'asc', 'en').map((p) => p.name)).toEqual(['adam 9', 'adam 10', 'émile', 'Zoë']);
    expect(sortRows(people, (p) => p.name, 'desc', 'en').map((p) => p.name)).toEqual(['Zoë', 'émile', 'adam 10', 'adam 9']);
  });
});

describe('selection', () => {
  const loaded = ['a', 'c', 'd'];
  it('the header checkbox selects every loaded selectable row, then none of them', () => {
    expect(headerCheckState([], loaded)).toBe('none');
    const all = toggleAll([], loaded);
    expect(all.sort()).toEqual(['a', 'c', 'd']);
    expect(headerCheckState(all, loaded)).toBe('all');
    expect(toggleAll(all, loaded)).toEqual([]);
  });

  it('some selected reads as mixed, and the header then selects the rest', () => {
    const some = toggleOne([], 'c', true);
    expect(headerCheckState(some, loaded)).toBe('some');
    expect(toggleAll(some, loaded).sort()).toEqual(['a', 'c', 'd']);
    expect(toggleOne(some, 'c', false)).toEqual([]);
  });

  it('only keys still listed and selectable count (a refresh may have moved some out)', () => {
    expect(effectiveSelection(['a', 'gone', 'b'], loaded)).toEqual(['a']);
    expect(headerCheckState(['gone'], loaded)).toBe('none');
    expect(headerCheckState(['a'], [])).toBe('none');
  });
});

describe('keyboard', () => {
  it('Enter and Space open a row; the arrows, Home and End move between rows; other keys do nothing', () => {
    expect(rowKeyAction('Enter')).toBe('open');
    expect(rowKeyAction(' ')).toBe('open');
    expect(rowKeyAction('ArrowDown')).toBe('next');
    expect(rowKeyAction('ArrowUp')).toBe('prev');
    expect(rowKeyAction('Home')).toBe('first');
    expect(rowKeyAction('End')).toBe('last');
    expect(rowKeyAction('a')).toBeNull();
    expect(rowKeyAction('Tab')).toBeNull();
  });

  it('focus stays inside the table', () => {
    expect(moveFocus('next', 0, 3)).toBe(1);
    expect(moveFocus('next', 2, 3)).toBe(2);
    expect(moveFocus('prev', 0, 3)).toBe(0);
    expect(moveFocus('first', 2, 3)).toBe(0);
    expect(moveFocus('last', 0, 3)).toBe(2);
    expect(moveFocus('next', 0, 0)).toBe(-1);
  });
});

describe('the rendered table', () => {
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    const en = readTexts('en');
    await i18n.use(initReactI18next).init({ lng: 'en', fallbackLng: false, resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
  });

  const columns: Column<Person>[] = [
    { key: 'name', title: 'Name', render: (p) => p.name, sortValue: (p) => p.name },
    { key: 'amount', title: 'Amount', render: (p) => String(p.amount ?? '—'), sortValue: (p) => p.amount, align: 'end' },
    { key: 'status', title: 'Status', render: (p) => p.status },
  ];
  const html = (props: Partial<DataTableProps<Person>>) => renderToStaticMarkup(
    createElement(I18nextProvider, { i18n }, createElement(DataTable<Person>, { rows: people, rowKey: (p) => p.id, columns, 'data-testid': 't', ...props }) as ReactNode),
  );
  const cells = (markup: string, index: number) =>
    [...markup.matchAll(/<tr data-row=""[^>]*>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)][index]?.[1]);

  it('is a real table: column headers with scope, sortable ones as buttons with aria-sort', () => {
    const markup = html({});
    expect(markup).toContain('<table class="data-table" data-testid="t">');
    expect(markup.match(/<th scope="col"/g)).toHaveLength(3);
    expect(markup).toMatch(/<th scope="col" aria-sort="none"[^>]*><button type="button" class="data-table-sort data-table-sort-none"[^>]*data-testid="data-table-sort-name"/);
    // Without a sort value (and no server sort), a column is not sortable.
    expect(markup).toMatch(/<th scope="col">Status<\/th>/);
  });

  it('sorts the loaded rows by the initial sort, empty values last', () => {
    const markup = html({ initialSort: { key: 'amount', dir: 'desc' } });
    expect(markup).toContain('aria-sort="descending"');
    expect(cells(markup, 0)).toEqual(['émile', 'adam 10', 'adam 9', 'Zoë']);
  });

  it('leaves the order to the server when it sorts', () => {
    const markup = html({ sort: { key: 'name', dir: 'asc' }, onSortChange: () => undefined });
    expect(markup).toContain('aria-sort="ascending"');
    expect(cells(markup, 0)).toEqual(['émile', 'Zoë', 'adam 10', 'adam 9']);
  });

  it('shows checkboxes on selectable rows only, "n selected" and the bulk actions for them', () => {
    const markup = html({
      selected: ['a', 'c', 'b'],
      onSelectedChange: () => undefined,
      selectable: (p) => p.status === 'pending',
      bulkActions: (keys) => createElement('button', { type: 'button', 'data-testid': 'bulk' }, `Approve ${keys.join('+')}`),
      rowLabel: (p) => p.name,
    });
    expect(markup).toContain('data-testid="data-table-select-all"');
    expect(markup).toContain('aria-label="Select émile"');
    expect(markup).not.toContain('data-testid="data-table-select-b"'); // active: not selectable
    expect(markup).toMatch(/data-testid="data-table-select-a" checked=""|checked="" [^>]*data-testid="data-table-select-a"/);
    // "b" is selected but not selectable: it does not count.
    expect(markup).toContain('>2 selected<');
    expect(markup).toContain('Approve a+c');
    expect(markup).toContain('aria-selected="true"');
  });

  it('makes clickable rows focusable for the keyboard, and only those', () => {
    expect(html({ onRowClick: () => undefined })).toMatch(/<tr data-row="" data-testid="row-a" class="data-table-clickable" tabindex="0"/);
    expect(html({})).not.toContain('tabindex');
  });

  it('shows the empty state, the loading state and "Load more"', () => {
    expect(html({ rows: [] })).toContain('data-testid="data-table-empty"');
    expect(html({ rows: [], empty: createElement('p', null, 'Nothing yet') })).toContain('Nothing yet');
    const loading = html({ loading: true, pagination: { hasNextPage: true, isFetchingNextPage: false, fetchNextPage: async () => undefined } });
    expect(loading).toContain('role="status"');
    expect(loading).not.toContain('load-more');
    expect(html({ pagination: { hasNextPage: true, isFetchingNextPage: false, fetchNextPage: async () => undefined } })).toContain('data-testid="load-more"');
    expect(html({ pagination: { hasNextPage: false, isFetchingNextPage: false, fetchNextPage: async () => undefined } })).not.toContain('load-more');
  });
});
