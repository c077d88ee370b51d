import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AdminConversion, AdminConversionDetail, AdminConversionList, ConversionStatus } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { AdminConversion, ConversionStatus };
export type ConversionDetail = AdminConversionDetail;

const conversionsQuery = (status: ConversionStatus, locale: string) =>
  infiniteQueryOptions({
    // The campaign names come in the reader's language.
    queryKey: ['admin', 'conversions', status, locale] as const,
    queryFn: ({ pageParam, signal }) =>
      api<AdminConversionList>('GET', `admin/conversions?status=${status}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useConversions = (status: ConversionStatus, locale: string) => useInfiniteQuery(conversionsQuery(status, locale));

/** One conversion (`GET api/admin/conversions/:id`): what was sent, its commissions and refunds, and its explanation in the reader's language. */
export const useConversion = (id: string, locale: string) =>
  useQuery({
    queryKey: ['admin', 'conversions', 'one', id, locale] as const,
    queryFn: ({ signal }) => api<AdminConversionDetail>('GET', `admin/conversions/${encodeURIComponent(id)}`, undefined, { signal }),
  });
