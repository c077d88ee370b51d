import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkCreate, LinkEnvelope, LinkList, LinkPatch, LinkStats } from '@pa/shared';
import { api } from '@/lib/api-client';

/** My links, newest first; optionally one campaign's. Keyed by language: campaign names are localized. */
const linksQuery = (locale: string, campaignId?: string) =>
  infiniteQueryOptions({
    queryKey: ['links', locale, 'list', campaignId ?? 'all'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '50' });
      if (campaignId) params.set('campaignId', campaignId);
      if (pageParam) params.set('cursor', pageParam);
      return api<LinkList>('GET', `links?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useLinks = (locale: string, campaignId?: string) => useInfiniteQuery(linksQuery(locale, campaignId));

const linkQuery = (id: string, locale: string) =>
  queryOptions({
    queryKey: ['links', locale, 'detail', id] as const,
    queryFn: ({ signal }) => api<LinkEnvelope>('GET', `links/${encodeURIComponent(id)}`, undefined, { signal }).then((r) => r.link),
    staleTime: 0,
  });

export const useLink = (id: string, locale: string) => useQuery(linkQuery(id, locale));

export const useLinkStats = (id: string) =>
  useQuery({
    queryKey: ['links', 'stats', id] as const,
    queryFn: ({ signal }) => api<LinkStats>('GET', `links/${encodeURIComponent(id)}/stats`, undefined, { signal }),
    staleTime: 0,
  });

export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LinkCreate) => api<LinkEnvelope>('POST', 'links', body).then((r) => r.link),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });
}

export function useUpdateLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: LinkPatch) =>
      api<LinkEnvelope>('PATCH', `links/${encodeURIComponent(id)}`, patch).then((r) => r.link),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });
}
