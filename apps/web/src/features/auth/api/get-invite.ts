import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InviteLookup } from '@pa/shared';
import { api } from '@/lib/api-client';

/** Whose invite a code is (the name masked); NOT_FOUND for an unknown code. Rate-limited like sign-in: asked once per code. */
const inviteQuery = (code: string) =>
  queryOptions({
    queryKey: ['invite', code] as const,
    queryFn: ({ signal }) => api<InviteLookup>('GET', `auth/invites/${encodeURIComponent(code)}`, undefined, { signal }),
    staleTime: Infinity,
  });

/** Only for a well-formed code (`code` null: nothing is asked). */
export const useInvite = (code: string | null) => useQuery({ ...inviteQuery(code ?? ''), enabled: code !== null });
