/**
 * The console's bounty calls (issue 31 item 5; contract in packages/shared/src/bounties.ts): a
 * campaign's bounties, create, change or archive one, and the submissions waiting for a decision.
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminBounty, AdminBountyList, AdminCampaignEnvelope, BountyCreate, BountyPatch, BountySubmissionList, SubmissionStatus, RewardGroupOption } from '@pa/shared';
import { api, ApiError } from '@/lib/api-client';
import { FOLLOWED } from '@/lib/query-client';
import { groupsQuery } from '@/lib/groups-query';

export type { AdminBounty, SubmissionStatus };

export const adminBountiesQuery = (campaignId: string) =>
  queryOptions({
    // The campaign editor's link to this page reads the same key (campaigns/components/reward-rules-link.tsx).
    queryKey: ['admin', 'bounties', 'campaign', campaignId] as const,
    queryFn: ({ signal }) => api<AdminBountyList>('GET', `admin/campaigns/${encodeURIComponent(campaignId)}/bounties`, undefined, { signal }),
    // How often each was earned and what waits for review change while the page is open.
    ...FOLLOWED,
  });

export const useAdminBounties = (campaignId: string) => useQuery(adminBountiesQuery(campaignId));

export function useCreateBounty(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BountyCreate) => api<AdminBounty>('POST', `admin/campaigns/${encodeURIComponent(campaignId)}/bounties`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'bounties'] }),
  });
}

export function usePatchBounty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: BountyPatch & { id: string }) => api<AdminBounty>('PATCH', `admin/bounties/${encodeURIComponent(id)}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'bounties'] }),
  });
}

const submissionsQuery = (status: SubmissionStatus, bountyId: string | null) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'bounties', 'submissions', status, bountyId ?? ''] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ status });
      if (bountyId) params.set('bountyId', bountyId);
      if (pageParam) params.set('cursor', pageParam);
      return api<BountySubmissionList>('GET', `admin/bounty-submissions?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Proof arrives while the queue is open; another operator may decide meanwhile.
    ...FOLLOWED,
  });

export const useBountySubmissions = (status: SubmissionStatus, bountyId: string | null) => useInfiniteQuery(submissionsQuery(status, bountyId));

/** Approve (a commission of kind `bounty` is made) or reject with the reason the promoter reads. */
export function useSubmissionDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: 'approve' | 'reject'; reason?: string }) =>
      api<unknown>('POST', `admin/bounty-submissions/${encodeURIComponent(id)}/${action}`, action === 'reject' ? { reason } : undefined),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'bounties'] }),
  });
}

/** The campaign (its name in the title): the campaign editor's query, so one cache serves both. */
export const useBountyCampaign = (id: string) =>
  useQuery({
    queryKey: ['admin', 'campaigns', 'one', id] as const,
    queryFn: ({ signal }) => api<AdminCampaignEnvelope>('GET', `admin/campaigns/${encodeURIComponent(id)}`, undefined, { signal }).then((r) => r.campaign),
  });

export type GroupOption = RewardGroupOption;

/** The promoter groups a bounty may be limited to, or null where this reader may not list them. */
export function useBountyGroups() {
  const groups = useQuery({ ...groupsQuery, retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2 });
  const options: GroupOption[] | null | undefined = groups.isError ? null : groups.data?.map((g) => ({ id: g.id, name: g.name }));
  return { options, pending: groups.isPending && !groups.isError };
}
