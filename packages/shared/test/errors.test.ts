import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_CODES, isCalendarDay, MAX_INSTANT } from '../src';

describe('field codes', () => {
  it('docs/api.md lists exactly the field codes of the catalogue', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8');
    const start = doc.indexOf('| field code | meaning |');
    expect(start).toBeGreaterThan(0);
    const table = doc.slice(start).split('\n\n')[0]!.split('\n').slice(2);
    const listed = table.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
    expect(listed.length).toBeGreaterThan(10);
    expect([...listed].sort()).toEqual([...FIELD_CODES].sort());
  });
});

describe('the calendar-day rule', () => {
  it('takes real days only', () => {
    for (const day of ['2024-01-01', '2024-02-29', '2000-02-29', '1970-01-01', '9999-12-31', '2023-12-31']) expect(isCalendarDay(day), day).toBe(true);
    for (const day of ['2024-13-45', '2024-00-01', '9999-99-99', '2023-02-29', '1900-02-29', '2024-04-31', '2024-01-00', '1969-12-31', '2024-1-01', ' 2024-01-01', '2024-01-01T00:00', '２０２４-01-01', ''])
      expect(isCalendarDay(day), day).toBe(false);
  });
  it('ends instants where a Date still holds them', () => {
    expect(new Date(MAX_INSTANT).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});
