/** The promoter's bounty calls: what is open with progress, a submission of proof, its image. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BountyImage, BountySubmissionCreate, PromoterBounty, PromoterBountyList } from '@pa/shared';
import { api } from '@/lib/api-client';
import { FOLLOWED } from '@/lib/query-client';

export type { PromoterBounty };

export const bountiesQuery = (locale: string) =>
  queryOptions({
    // Names and descriptions come in the reader's language.
    queryKey: ['bounties', locale] as const,
    queryFn: ({ signal }) => api<PromoterBountyList>('GET', 'bounties', undefined, { signal }),
    // Progress and a proof's status change while the list is on screen (a sale, staff's decision).
    ...FOLLOWED,
  });

export const useBounties = (locale: string) => useQuery(bountiesQuery(locale));

/** An image for a submission (raw bytes, like the campaign images); its id goes in the submission. */
export function useUploadBountyImage(bountyId: string) {
  return useMutation({
    mutationFn: (file: Blob) => api<BountyImage>('POST', `bounties/${encodeURIComponent(bountyId)}/images`, file),
  });
}

export function useSubmitProof(bountyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BountySubmissionCreate) => api<unknown>('POST', `bounties/${encodeURIComponent(bountyId)}/submissions`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bounties'] }),
  });
}
