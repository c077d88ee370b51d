import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Announcement, AnnouncementList } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { Announcement };

/** How many Home shows (the server's default; it allows 1–20). */
export const HOME_ANNOUNCEMENTS = 5;

/**
 * GET api/announcements: published, pinned first then newest, in the request's language. The
 * language is part of the key because the server picks the text by Accept-Language.
 */
const getAnnouncements = (limit: number, signal?: AbortSignal) =>
  api<AnnouncementList>('GET', `announcements?limit=${limit}`, undefined, { signal });

const announcementsQuery = (locale: string, limit = HOME_ANNOUNCEMENTS) =>
  queryOptions({
    queryKey: ['announcements', 'home', locale, limit] as const,
    queryFn: ({ signal }) => getAnnouncements(limit, signal),
    staleTime: 60_000,
  });

export const useAnnouncements = (locale: string, limit = HOME_ANNOUNCEMENTS) => useQuery(announcementsQuery(locale, limit));
