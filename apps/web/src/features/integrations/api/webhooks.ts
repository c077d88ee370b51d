import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Ok, Page, WebhookDelivery, WebhookDeliveryEnvelope, WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointCreated, WebhookEndpointEnvelope,
  WebhookEndpointList, WebhookEndpointPatch,
} from '@pa/shared';
import { api, type WithId } from '@/lib/api-client';

export type { WebhookDelivery, WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointPatch };

const PAGE = 20;

/** `GET api/admin/webhooks` (admins): every endpoint (few: one answer), never a secret. */
const webhooksQuery = queryOptions({
  queryKey: ['admin', 'webhooks'] as const,
  queryFn: ({ signal }) => api<WebhookEndpointList>('GET', 'admin/webhooks', undefined, { signal }).then((r) => r.items),
});

export const useWebhooks = () => useQuery(webhooksQuery);

/** `GET api/admin/webhooks/:id/deliveries`: newest first, each with its attempts; asked again every 2 s while one is still pending. */
const deliveriesQuery = (endpointId: string) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'webhooks', endpointId, 'deliveries'] as const,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam) query.set('cursor', pageParam);
      return api<Page<WebhookDelivery>>('GET', `admin/webhooks/${encodeURIComponent(endpointId)}/deliveries?${query.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useDeliveries = (endpointId: string) =>
  useInfiniteQuery({
    ...deliveriesQuery(endpointId),
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.items.some((d) => d.status === 'pending')) ? 2000 : false),
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhooksQuery.queryKey });
}

/** `POST api/admin/webhooks`: answers the endpoint and its signing secret, in this answer only. */
export function useCreateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: WebhookEndpointCreate) => api<WebhookEndpointCreated>('POST', 'admin/webhooks', body),
    onSuccess: invalidate,
  });
}

/** `PATCH api/admin/webhooks/:id`: address, events, description, or enabled/disabled. */
export function useUpdateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...patch }: WithId<WebhookEndpointPatch>) => api<WebhookEndpointEnvelope>('PATCH', `admin/webhooks/${encodeURIComponent(id)}`, patch),
    onSuccess: invalidate,
  });
}

/** `DELETE api/admin/webhooks/:id`: the endpoint and its delivery log. */
export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api<Ok>('DELETE', `admin/webhooks/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  });
}

/** `POST api/admin/webhooks/:id/rotate-secret`: a new secret (in this answer only); the previous one still signs for 24 h. */
export function useRotateWebhookSecret() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api<WebhookEndpointCreated>('POST', `admin/webhooks/${encodeURIComponent(id)}/rotate-secret`),
    onSuccess: invalidate,
  });
}

/** `POST api/admin/webhooks/:id/test`: a `webhook.test` event, queued like any other; the deliveries list shows it. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Ok>('POST', `admin/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: deliveriesQuery(id).queryKey }),
  });
}

/** `POST api/admin/webhooks/deliveries/:id/retry`: sends a delivery that has ended again, now. */
export function useRetryDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => api<WebhookDeliveryEnvelope>('POST', `admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesQuery(endpointId).queryKey }),
  });
}
