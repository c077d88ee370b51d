import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MePatch, UserEnvelope } from '@pa/shared';
import { api } from '@/lib/api-client';
import { useRememberUser } from '@/lib/session';

export function useUpdateMe() {
  const remember = useRememberUser();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: MePatch) => api<UserEnvelope>('PATCH', 'me', patch),
    onSuccess: ({ user }, patch) => {
      remember(user);
      // Opting in or out changes the ranking at once (the server forgets its cached one).
      if (patch.leaderboardOptOut !== undefined) void queryClient.invalidateQueries({ queryKey: ['leaderboard'] });
    },
  });
}
