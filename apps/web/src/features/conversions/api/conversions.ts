import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminConversion, AdminConversionList, ConversionStatus } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { AdminConversion, ConversionStatus };

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
