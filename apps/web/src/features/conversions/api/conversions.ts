/**
 * The console's conversions and corrections (`api/admin/conversions…`, `api/admin/commissions/:id/reverse`,
 * `api/admin/bindings…`; docs/rewards.md "Corrections"): the searchable list, one conversion's
 * detail, assigning it to a promoter, reversing a commission, and customer bindings ended and moved.
 */
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminCampaignList, AdminConversion, AdminConversionDetail, AdminConversionList, AdminPromoterDetail, AdminPromoterList, Binding, BindingEnvelope, BindingList, CommissionReverseResult, ConversionAssignResult,
  ConversionReason, ConversionStatus,
} from '@pa/shared';
import { api } from '@/lib/api-client';

export type { AdminConversion, Binding, ConversionReason, ConversionStatus };
export type ConversionKind = AdminConversion['kind'];

/** Campaigns for the filters: one page of the largest size, newest first (the promoters list's query). */
export const useCampaignChoices = () =>
  useQuery({
    queryKey: ['admin', 'campaigns', 'choices'] as const,
    queryFn: ({ signal }) => api<AdminCampaignList>('GET', 'admin/campaigns?limit=100', undefined, { signal }).then((r) => r.items),
    staleTime: 60_000,
  });

/**
 * Promoters to pick from (`GET api/admin/promoters`): name or account (contains), or an exact
 * invite, link or coupon code; active ones only unless `anyStatus`; among a campaign's when given.
 */
export const usePromoterSearch = (q: string, campaignId: string | null, anyStatus: boolean) =>
  useQuery({
    queryKey: ['admin', 'promoters', 'pick', q, campaignId, anyStatus] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: '10', sort: 'name', dir: 'asc' });
      if (q) params.set('q', q);
      if (campaignId) params.set('campaignId', campaignId);
      if (!anyStatus) params.set('status', 'active');
      return api<AdminPromoterList>('GET', `admin/promoters?${params.toString()}`, undefined, { signal }).then((r) => r.items);
    },
    placeholderData: (previous) => previous,
  });

/** A filter's promoter by name (the address keeps only the id). */
export const usePromoterName = (id: string | null) =>
  useQuery({
    queryKey: ['admin', 'promoters', 'one', id ?? ''] as const,
    queryFn: ({ signal }) => api<AdminPromoterDetail>('GET', `admin/promoters/${encodeURIComponent(id ?? '')}`, undefined, { signal }),
    enabled: Boolean(id),
    select: (d) => d.promoter.displayName,
  });
export type ConversionDetail = AdminConversionDetail;

/** The list's filters, as the address keeps them (empty ones left out). */
export interface ConversionFilters {
  q: string;
  status: ConversionStatus | null;
  kind: ConversionKind | null;
  reason: ConversionReason | null;
  campaignId: string | null;
  promoterId: string | null;
  from: string | null;
  to: string | null;
}

/** The filters as the list's query string, without the page. */
export function conversionParams(f: ConversionFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (f.q) params.q = f.q;
  for (const key of ['status', 'kind', 'reason', 'campaignId', 'promoterId', 'from', 'to'] as const) {
    const v = f[key];
    if (v) params[key] = v;
  }
  return params;
}

const conversionsQuery = (f: ConversionFilters, locale: string) =>
  infiniteQueryOptions({
    // The campaign names come in the reader's language.
    queryKey: ['admin', 'conversions', 'list', f, locale] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams(conversionParams(f));
      params.set('limit', '20');
      if (pageParam) params.set('cursor', pageParam);
      return api<AdminConversionList>('GET', `admin/conversions?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });

export const useConversions = (f: ConversionFilters, locale: string) => useInfiniteQuery(conversionsQuery(f, locale));

/** One conversion (`GET api/admin/conversions/:id`): what was sent, its commissions and refunds, and its explanation in the reader's language. */
export const useConversion = (id: string, locale: string) =>
  useQuery({
    queryKey: ['admin', 'conversions', 'one', id, locale] as const,
    queryFn: ({ signal }) => api<AdminConversionDetail>('GET', `admin/conversions/${encodeURIComponent(id)}`, undefined, { signal }),
  });

/** After a correction: the conversions, commissions, promoters' figures and bindings are read again. */
function useInvalidateMoney() {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['admin', 'conversions'] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'commissions'] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'promoters'] }),
    queryClient.invalidateQueries({ queryKey: ['admin', 'bindings'] }),
  ]);
}

/** `POST api/admin/conversions/:id/assign`. */
export function useAssignConversion() {
  const invalidate = useInvalidateMoney();
  return useMutation({
    mutationFn: ({ id, promoterId, reason }: { id: string; promoterId: string; reason: string }) =>
      api<ConversionAssignResult>('POST', `admin/conversions/${encodeURIComponent(id)}/assign`, { promoterId, reason }),
    onSuccess: invalidate,
  });
}

/** `POST api/admin/commissions/:id/reverse`. */
export function useReverseCommission() {
  const invalidate = useInvalidateMoney();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api<CommissionReverseResult>('POST', `admin/commissions/${encodeURIComponent(id)}/reverse`, { reason }),
    onSuccess: invalidate,
  });
}

// ——— Customer bindings ———

export interface BindingFilters {
  customer: string;
  campaignId: string | null;
  promoterId: string | null;
  /** Only those not ended (the default), or every one. */
  active: boolean;
}

const bindingsQuery = (f: BindingFilters, locale: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'bindings', f, locale] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (f.customer) params.set('customer', f.customer);
      if (f.campaignId) params.set('campaignId', f.campaignId);
      if (f.promoterId) params.set('promoterId', f.promoterId);
      if (f.active) params.set('active', 'true');
      params.set('limit', '20');
      if (pageParam) params.set('cursor', pageParam);
      return api<BindingList>('GET', `admin/bindings?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: (previous) => previous,
  });

export const useBindings = (f: BindingFilters, locale: string) => useInfiniteQuery(bindingsQuery(f, locale));

/** `POST api/admin/bindings/:id/end` or `…/move` (with the promoter). */
export function useBindingAction() {
  const invalidate = useInvalidateMoney();
  return useMutation({
    mutationFn: ({ id, promoterId, reason }: { id: string; promoterId?: string; reason: string }) =>
      promoterId
        ? api<BindingEnvelope>('POST', `admin/bindings/${encodeURIComponent(id)}/move`, { promoterId, reason })
        : api<BindingEnvelope>('POST', `admin/bindings/${encodeURIComponent(id)}/end`, { reason }),
    onSuccess: invalidate,
  });
}
