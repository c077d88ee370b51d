import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RegistrationForm } from '@pa/shared';
import { ApiError, api } from '@/lib/api-client';

/**
 * `GET api/auth/application-form?group=<code>` (issue 31): the questions registering asks, in the
 * page's language (the key holds it: a language switch asks again). NOT_FOUND for a group link
 * that is no longer valid. Asked once per code and language.
 */
const applicationFormQuery = (group: string | null, locale: string) =>
  queryOptions({
    queryKey: ['application-form', group ?? '', locale] as const,
    queryFn: ({ signal }) => api<RegistrationForm>('GET', `auth/application-form${group ? `?group=${encodeURIComponent(group)}` : ''}`, undefined, { signal }),
    staleTime: 5 * 60_000,
    // A refusal (an unknown link, the rate limit) is final; a lost connection is tried again.
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  });

export const useApplicationForm = (group: string | null, locale: string) => useQuery(applicationFormQuery(group, locale));
