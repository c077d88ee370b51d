import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCampaign, AdminCampaignEnvelope, CampaignCreate, CampaignPatch, CampaignStatus, Image, ImageKind, Ok } from '@pa/shared';
import { api } from '@/lib/api-client';
import { campaignsQuery, useCampaigns } from '@/lib/campaign-list-query';

export { campaignsQuery, useCampaigns };
/** The list's filter: one status, or every one. */
export type CampaignFilter = CampaignStatus | 'all';

export type { ImageKind };
const path = (id: string) => `admin/campaigns/${encodeURIComponent(id)}`;

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'campaigns', 'one', id] as const,
    queryFn: ({ signal }) => api<AdminCampaignEnvelope>('GET', path(id), undefined, { signal }).then((r) => r.campaign),
  });

export const useCampaign = (id: string) => useQuery(campaignQuery(id));

/** Keeps the cached campaign and every list in step with a change. */
function useStore() {
  const queryClient = useQueryClient();
  return (campaign: AdminCampaign) => {
    queryClient.setQueryData(campaignQuery(campaign.id).queryKey, campaign);
    // The reward fields are the base rules (GET api/admin/campaigns/:id/rewards).
    void queryClient.invalidateQueries({ queryKey: ['admin', 'campaigns', 'rewards', campaign.id] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'campaigns', 'list'] });
  };
}

export function useCreateCampaign() {
  const store = useStore();
  return useMutation({
    mutationFn: (body: CampaignCreate) => api<AdminCampaignEnvelope>('POST', 'admin/campaigns', body).then((r) => r.campaign),
    onSuccess: store,
  });
}

export function useUpdateCampaign(id: string) {
  const store = useStore();
  return useMutation({
    mutationFn: (patch: CampaignPatch) => api<AdminCampaignEnvelope>('PATCH', path(id), patch).then((r) => r.campaign),
    onSuccess: store,
  });
}

/** Uploads send the file's bytes as they are; the server identifies the type from them. */
export function useUploadImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImageKind; file: Blob }) => api<Image>('POST', `${path(id)}/images?kind=${kind}`, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'campaigns'] }),
  });
}

export function useRemoveImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageId: string) => api<Ok>('DELETE', `${path(id)}/images/${encodeURIComponent(imageId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'campaigns'] }),
  });
}
