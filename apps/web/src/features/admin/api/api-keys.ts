import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '@pa/shared';
import { api } from '../../../lib/api-client';

export type ApiScope = ApiKey['scopes'][number];
/** API_SCOPES in @pa/shared (kept here so the page does not pull the schemas into its bundle). */
export const API_SCOPES: readonly ApiScope[] = ['conversions:write', 'conversions:read'];

export interface ApiKeyCreate {
  name: string;
  scopes: ApiScope[];
  requireSignature: boolean;
}

/** The only answer that carries the secret. */
export interface ApiKeyCreated {
  id: string;
  secret: string;
  apiKey: ApiKey;
}

export const apiKeysQuery = queryOptions({
  queryKey: ['admin', 'api-keys'] as const,
  queryFn: ({ signal }) => api<{ items: ApiKey[] }>('GET', 'admin/api-keys', undefined, { signal }).then((r) => r.items),
});

export const useApiKeys = () => useQuery(apiKeysQuery);

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreate) => api<ApiKeyCreated>('POST', 'admin/api-keys', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>('POST', `admin/api-keys/${encodeURIComponent(id)}/revoke`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  });
}
