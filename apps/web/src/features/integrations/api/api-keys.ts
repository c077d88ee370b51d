import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreate, ApiKeyCreated, ApiKeyList, Ok, SnippetInfo } from '@pa/shared';
// From rules, not the package root: the page must not pull the zod schemas into its bundle.
import { API_SCOPES, type ApiScope } from '@pa/shared/rules';
import { api } from '@/lib/api-client';

export { API_SCOPES };
export type { ApiKeyCreate, ApiKeyCreated, ApiScope };

const apiKeysQuery = queryOptions({
  queryKey: ['admin', 'api-keys'] as const,
  queryFn: ({ signal }) => api<ApiKeyList>('GET', 'admin/api-keys', undefined, { signal }).then((r) => r.items),
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
    mutationFn: (id: string) => api<Ok>('POST', `admin/api-keys/${encodeURIComponent(id)}/revoke`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
  });
}

/** The landing-page snippet's version (for its cacheable address) and size. */
const snippetQuery = queryOptions({
  queryKey: ['admin', 'integrations', 'snippet'] as const,
  queryFn: ({ signal }) => api<SnippetInfo>('GET', 'admin/integrations/snippet', undefined, { signal }),
  staleTime: Infinity,
});

export const useSnippetInfo = () => useQuery(snippetQuery);
