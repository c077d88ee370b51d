import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminAnnouncement, AdminAnnouncementEnvelope, AdminAnnouncementList, AnnouncementCreate, AnnouncementPatch, AnnouncementStatus, Ok } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { AdminAnnouncement, AnnouncementCreate, AnnouncementPatch, AnnouncementStatus };
/** The list's filter: one status, or every one. */
export type AnnouncementFilter = AnnouncementStatus | 'all';

const path = (id: string) => `admin/announcements/${encodeURIComponent(id)}`;

const adminAnnouncementsQuery = (filter: AnnouncementFilter) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'announcements', 'list', filter] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (filter !== 'all') params.set('status', filter);
      if (pageParam) params.set('cursor', pageParam);
      return api<AdminAnnouncementList>('GET', `admin/announcements?${params.toString()}`, undefined, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAdminAnnouncements = (filter: AnnouncementFilter) => useInfiniteQuery(adminAnnouncementsQuery(filter));

const adminAnnouncementQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'announcements', 'one', id] as const,
    queryFn: ({ signal }) => api<AdminAnnouncementEnvelope>('GET', path(id), undefined, { signal }).then((r) => r.announcement),
  });

export const useAdminAnnouncement = (id: string) => useQuery(adminAnnouncementQuery(id));

/** Keeps the cached announcement, the staff lists and what Home shows in step with a change. */
function useStore() {
  const queryClient = useQueryClient();
  return (announcement?: AdminAnnouncement) => {
    if (announcement) queryClient.setQueryData(adminAnnouncementQuery(announcement.id).queryKey, announcement);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'announcements', 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['announcements'] });
  };
}

/** After a refusal (someone else moved it first, or deleted it), everything shown is fetched again. */
function useRefetchAll() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['admin', 'announcements'] });
}

export function useCreateAnnouncement() {
  const store = useStore();
  return useMutation({
    mutationFn: (body: AnnouncementCreate) => api<AdminAnnouncementEnvelope>('POST', 'admin/announcements', body).then((r) => r.announcement),
    onSuccess: store,
  });
}

/** Texts, pin and status moves (draft → published, published → archived, archived → published). */
export function useUpdateAnnouncement(id: string) {
  const store = useStore();
  const refetchAll = useRefetchAll();
  return useMutation({
    mutationFn: (patch: AnnouncementPatch) => api<AdminAnnouncementEnvelope>('PATCH', path(id), patch).then((r) => r.announcement),
    onSuccess: store,
    onError: refetchAll,
  });
}

/** Drafts only; anything else is INVALID_STATE_TRANSITION. */
export function useDeleteAnnouncement(id: string) {
  const queryClient = useQueryClient();
  const store = useStore();
  const refetchAll = useRefetchAll();
  return useMutation({
    mutationFn: () => api<Ok>('DELETE', path(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: adminAnnouncementQuery(id).queryKey });
      store();
    },
    onError: refetchAll,
  });
}
