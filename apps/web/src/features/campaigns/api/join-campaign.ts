import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnrollmentEnvelope } from '@pa/shared';
import { api } from '@/lib/api-client';

/** Joining may create the default link, so both campaigns and links are refetched. */
export function useJoinCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<EnrollmentEnvelope>('POST', `campaigns/${encodeURIComponent(id)}/join`),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['campaigns'] }), queryClient.invalidateQueries({ queryKey: ['links'] })]);
    },
  });
}
