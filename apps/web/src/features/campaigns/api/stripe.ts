import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StripeSecret, StripeStatus } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { StripeStatus };

const path = (campaignId: string) => `admin/integrations/stripe/${encodeURIComponent(campaignId)}`;

/** A campaign's Stripe receiver: connected or not, and its latest events. */
const stripeQuery = (campaignId: string) =>
  queryOptions({
    queryKey: ['admin', 'stripe', campaignId] as const,
    queryFn: ({ signal }) => api<StripeStatus>('GET', path(campaignId), undefined, { signal }),
    // Fresh whenever the page opens, and every 10 s while it stays open: an operator sending a
    // test event from Stripe's dashboard sees it arrive.
    staleTime: 0,
    refetchOnMount: 'always',
    refetchInterval: 10_000,
  });

export const useStripe = (campaignId: string) => useQuery(stripeQuery(campaignId));

export function useSetStripeSecret(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StripeSecret) => api<StripeStatus>('PUT', path(campaignId), body),
    onSuccess: (status) => queryClient.setQueryData(stripeQuery(campaignId).queryKey, status),
  });
}
