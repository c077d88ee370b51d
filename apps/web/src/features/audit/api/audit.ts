import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEntry, AuditList } from '@pa/shared';
import { api, apiFile } from '@/lib/api-client';
import { filtersToQuery, type AuditFilters } from '../lib/audit';

export type { AuditEntry };

const PAGE = 50;

/** `GET api/admin/audit` (admins): newest first, a page at a time, under the filters. */
const auditQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', filtersToQuery(filters)] as const,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams(filtersToQuery(filters));
      query.set('limit', String(PAGE));
      if (pageParam) query.set('cursor', pageParam);
      return api<AuditList>('GET', `admin/audit?${query.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAudit = (filters: AuditFilters) => useInfiniteQuery(auditQuery(filters));

/** `GET api/admin/audit/export`: the server's CSV of every entry the filters match (the export is itself recorded). */
export function exportAudit(filters: AuditFilters) {
  const query = filtersToQuery(filters);
  return apiFile(`admin/audit/export${query ? `?${query}` : ''}`);
}
