import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailPreferencePatch, MailPreferences } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { MailPreferences };

/** `GET api/me/mail-preferences`: the person's categories (those of their role), and whether mail can reach them at all. */
const mailPreferencesQuery = queryOptions({
  queryKey: ['me', 'mail-preferences'] as const,
  queryFn: ({ signal }) => api<MailPreferences>('GET', 'me/mail-preferences', undefined, { signal }),
});

export const useMailPreferences = () => useQuery(mailPreferencesQuery);

/** `PATCH api/me/mail-preferences`: one category on or off; the answer is the whole set, kept as the query's data. */
export function useSetMailPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: MailPreferencePatch) => api<MailPreferences>('PATCH', 'me/mail-preferences', patch),
    onSuccess: (prefs) => queryClient.setQueryData(mailPreferencesQuery.queryKey, prefs),
  });
}
