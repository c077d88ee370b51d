import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useJoinCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ enrollment: { status: 'pending' | 'approved' | 'rejected' } }>('POST', `campaigns/${encodeURIComponent(id)}/join`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['campaigns'] }),
  });
}
