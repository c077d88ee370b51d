import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Commission, CommissionStatus, LedgerLine, Wallet } from '@pa/shared';
import { api } from '../../../lib/api-client';
import { FOLLOWED } from '../../../lib/query-client';

export const useWallet = () =>
  useQuery({ queryKey: ['wallet'] as const, queryFn: ({ signal }) => api<Wallet>('GET', 'wallet', undefined, { signal }), ...FOLLOWED });

export interface CommissionFilters {
  status?: CommissionStatus;
  from?: string;
  to?: string;
}

export const commissionsQuery = (locale: string, filters: CommissionFilters) =>
  infiniteQueryOptions({
    queryKey: ['commissions', locale, filters] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
      if (pageParam) params.set('cursor', pageParam);
      return api<{ items: Commission[]; nextCursor: string | null }>('GET', `commissions?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...FOLLOWED,
  });

export const useCommissions = (locale: string, filters: CommissionFilters) => useInfiniteQuery(commissionsQuery(locale, filters));

export interface CommissionDetail {
  commission: Commission;
  conversion: { kind: 'lead' | 'sale' | 'refund'; externalId: string; amount: number; refundedAmount: number; attributedBy: string | null; occurredAt: number };
  events: { status: string; amount: number; reason: string | null; at: number }[];
  currency: string;
}

export const useCommission = (id: string, locale: string) =>
  useQuery({
    queryKey: ['commissions', locale, 'detail', id] as const,
    queryFn: ({ signal }) => api<CommissionDetail>('GET', `commissions/${encodeURIComponent(id)}`, undefined, { signal }),
    ...FOLLOWED,
  });

export const useLedger = () =>
  useInfiniteQuery({
    queryKey: ['ledger'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      api<{ items: LedgerLine[]; nextCursor: string | null }>('GET', `ledger?limit=30${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    ...FOLLOWED,
  });
