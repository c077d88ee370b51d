/**
 * The console's promoters (`api/admin/promoters…`): the searchable list and its export, one
 * promoter with the tabs of their page, manual adjustments (admin) and one-time password links.
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdjustmentCreate, AdjustmentResult, AdminCampaignList, AdminPromoterCommissionList, AdminPromoterDetail, AdminPromoterLedger, AdminPromoterLinkList, AdminPromoterList,
  AdminPromoterPayoutAccountList, AdminPromoterSessionList, AdminPromoterWithdrawalList, PasswordResetLink, PromoterAction, PromoterGroupMove, PromoterGroupMoved,
  PromoterPatch, PromoterSort, UserEnvelope, UserStatus,
} from '@pa/shared';
import { api, apiFile, type Idempotent } from '@/lib/api-client';
import { groupsQuery } from '@/lib/groups-query';

export interface PromoterFilters {
  q: string;
  status: UserStatus | null;
  campaignId: string | null;
  groupId: string | null;
  sort: PromoterSort;
  dir: 'asc' | 'desc';
}

/** The filters as the list's query string (empty ones left out), without the page. */
function promoterParams(f: PromoterFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.status) params.set('status', f.status);
  if (f.campaignId) params.set('campaignId', f.campaignId);
  if (f.groupId) params.set('groupId', f.groupId);
  params.set('sort', f.sort);
  params.set('dir', f.dir);
  return params;
}

const base = (id: string) => `admin/promoters/${encodeURIComponent(id)}`;

const promotersQuery = (f: PromoterFilters) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'promoters', 'list', f] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = promoterParams(f);
      params.set('limit', '20');
      if (pageParam) params.set('cursor', pageParam);
      return api<AdminPromoterList>('GET', `admin/promoters?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // A new search keeps the rows on screen until its answer arrives, rather than flashing empty.
    placeholderData: (previous) => previous,
  });

export const usePromoters = (f: PromoterFilters) => useInfiniteQuery(promotersQuery(f));

/** The server's export of every promoter the filters find (audited as promoter.export). */
export const exportPromoters = (f: PromoterFilters) => apiFile(`admin/promoters/export?${promoterParams(f).toString()}`);

/** Campaigns for the list's filter: one page of the largest size, newest first. */
export const useCampaignChoices = () =>
  useQuery({
    queryKey: ['admin', 'campaigns', 'choices'] as const,
    queryFn: ({ signal }) => api<AdminCampaignList>('GET', 'admin/campaigns?limit=100', undefined, { signal }).then((r) => r.items),
    staleTime: 60_000,
  });

const promoterQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'promoters', 'one', id] as const,
    queryFn: ({ signal }) => api<AdminPromoterDetail>('GET', base(id), undefined, { signal }),
    staleTime: 0,
  });

export const usePromoter = (id: string) => useQuery(promoterQuery(id));

/** Each tab of the promoter's page (its path segment) and the page of rows its call answers. */
export interface PromoterTabs {
  ledger: AdminPromoterLedger;
  commissions: AdminPromoterCommissionList;
  withdrawals: AdminPromoterWithdrawalList;
  links: AdminPromoterLinkList;
  'payout-accounts': AdminPromoterPayoutAccountList;
  sessions: AdminPromoterSessionList;
}
export type PromoterTab = keyof PromoterTabs;

/** One of the promoter page's tabs, cursor-paged; campaign names come in the reader's language. */
const promoterTabQuery = <T extends PromoterTab>(id: string, tab: T, locale: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'promoters', 'one', id, tab, locale] as const,
    queryFn: ({ pageParam, signal }) =>
      api<PromoterTabs[T]>('GET', `${base(id)}/${tab}?limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });

export const usePromoterTab = <T extends PromoterTab>(id: string, tab: T, locale: string) => useInfiniteQuery(promoterTabQuery(id, tab, locale));

/** The adjustment's body, whose it is (the path) and the attempt's Idempotency-Key. */
export type AdjustmentRequest = Idempotent<AdjustmentCreate> & { promoterId: string };

/** Everything of the promoter an adjustment changes: the figures, the ledger tab, the list's balances. */
export function useAdjustBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ promoterId, amount, reason, allowNegative, idempotencyKey }: AdjustmentRequest) =>
      api<AdjustmentResult>('POST', `${base(promoterId)}/adjustments`, { amount, reason, ...(allowNegative ? { allowNegative: true } : {}) } satisfies AdjustmentCreate, { headers: { 'idempotency-key': idempotencyKey } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'promoters'] }),
  });
}

/** A one-time link (30 minutes, single use) for the promoter to set a new password; shown once. */
export function useResetLink() {
  return useMutation({
    mutationFn: (promoterId: string) => api<PasswordResetLink>('POST', `${base(promoterId)}/password-reset`),
  });
}

/**
 * A status move from the promoter's page (`POST api/admin/users/:id/:action`); the page, the
 * promoters list and the registrations lists all show the status, so all are refetched.
 */
export function usePromoterAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: PromoterAction }) => api<UserEnvelope>('POST', `admin/users/${encodeURIComponent(id)}/${action}`),
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'promoters'] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'users'] }),
    ]),
  });
}

/** The promoter groups, for the list's filter and for moving promoters (issue 31). */
export const useGroupChoices = () => useQuery(groupsQuery);

/** Moving promoters changes the list, their pages and the groups' counts. */
function useGroupMove<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'promoters'] }),
      queryClient.invalidateQueries({ queryKey: groupsQuery.queryKey }),
    ]),
  });
}

/** `POST api/admin/promoters/group`: many promoters into one group, all or none (admin). */
export const useMovePromoters = () => useGroupMove((body: PromoterGroupMove) => api<PromoterGroupMoved>('POST', 'admin/promoters/group', body));

/** `PATCH api/admin/promoters/:id { groupId }`: one promoter into a group (admin). */
export const useChangePromoterGroup = () => useGroupMove(({ id, ...patch }: PromoterPatch & { id: string }) => api<AdminPromoterDetail>('PATCH', base(id), patch));
