import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { CommissionDetail, CommissionList, CommissionQuery, Explanation, LedgerList, Wallet } from '@pa/shared';
import { api } from '@/lib/api-client';
import { FOLLOWED } from '@/lib/query-client';

export const useWallet = () =>
  useQuery({ queryKey: ['wallet'] as const, queryFn: ({ signal }) => api<Wallet>('GET', 'wallet', undefined, { signal }), ...FOLLOWED });

/** The list's filters (the page and campaign are not among them). */
export type CommissionFilters = Pick<CommissionQuery, 'status' | 'from' | 'to'>;

const commissionsQuery = (locale: string, filters: CommissionFilters) =>
  infiniteQueryOptions({
    queryKey: ['commissions', locale, filters] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (pageParam) params.set('cursor', pageParam);
      return api<CommissionList>('GET', `commissions?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...FOLLOWED,
  });

export const useCommissions = (locale: string, filters: CommissionFilters) => useInfiniteQuery(commissionsQuery(locale, filters));

export type { CommissionDetail };

export const useCommission = (id: string, locale: string) =>
  useQuery({
    queryKey: ['commissions', locale, 'detail', id] as const,
    queryFn: ({ signal }) => api<CommissionDetail>('GET', `commissions/${encodeURIComponent(id)}`, undefined, { signal }),
    ...FOLLOWED,
  });

/** Why the commission earned what it did, step by step, in the reader's language. */
export const useCommissionExplanation = (id: string, locale: string) =>
  useQuery({
    queryKey: ['commissions', locale, 'explanation', id] as const,
    queryFn: ({ signal }) => api<Explanation>('GET', `commissions/${encodeURIComponent(id)}/explanation`, undefined, { signal }),
    // Decided once, with the conversion: it does not change while on screen.
    staleTime: 5 * 60_000,
  });

export const useLedger = () =>
  useInfiniteQuery({
    queryKey: ['ledger'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      api<LedgerList>('GET', `ledger?limit=30${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...FOLLOWED,
  });
