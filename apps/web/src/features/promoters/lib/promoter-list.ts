/**
 * The promoters list's filters as they live in the address (`#/admin/promoters?q=…&status=…&
 * campaignId=…&groupId=…&sort=…&dir=…`): read back with anything unknown falling to its default, and
 * written with the defaults left out, so a shared or reloaded address shows the same rows.
 */
import { PROMOTER_SORTS, UserStatusSchema, type PromoterSort, type UserStatus } from '@pa/shared';
import type { PromoterFilters } from '../api/promoters';

export const Q_MAX = 100;
export const DEFAULT_SORT: { sort: PromoterSort; dir: 'asc' | 'desc' } = { sort: 'createdAt', dir: 'desc' };

export function readFilters(params: URLSearchParams): PromoterFilters {
  const status = UserStatusSchema.safeParse(params.get('status'));
  const sort = params.get('sort') ?? '';
  const dir = params.get('dir');
  return {
    q: (params.get('q') ?? '').trim().slice(0, Q_MAX),
    status: status.success ? (status.data satisfies UserStatus) : null,
    campaignId: (params.get('campaignId') ?? '').slice(0, 64) || null,
    groupId: (params.get('groupId') ?? '').slice(0, 64) || null,
    sort: (PROMOTER_SORTS as readonly string[]).includes(sort) ? (sort as PromoterSort) : DEFAULT_SORT.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_SORT.dir,
  };
}

/** The address's query for these filters: defaults and empty values left out, other parameters kept. */
export function writeFilters(f: PromoterFilters, keep: URLSearchParams = new URLSearchParams()): string {
  const params = new URLSearchParams(keep);
  for (const key of ['q', 'status', 'campaignId', 'groupId', 'sort', 'dir']) params.delete(key);
  if (f.q) params.set('q', f.q);
  if (f.status) params.set('status', f.status);
  if (f.campaignId) params.set('campaignId', f.campaignId);
  if (f.groupId) params.set('groupId', f.groupId);
  if (f.sort !== DEFAULT_SORT.sort || f.dir !== DEFAULT_SORT.dir) {
    params.set('sort', f.sort);
    params.set('dir', f.dir);
  }
  return params.toString();
}

/**
 * How many data rows a CSV holds (its header line not counted): line ends inside a quoted field
 * belong to the field. The server's export says nothing else about its size.
 */
export function csvRowCount(text: string): number {
  let rows = 0;
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || (c === '\r' && text[i + 1] !== '\n'))) {
      if (content) rows += 1;
      content = false;
    } else if (c !== '\r' && c !== '\uFEFF') content = true;
  }
  if (content) rows += 1;
  return Math.max(0, rows - 1);
}
