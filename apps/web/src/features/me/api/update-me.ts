import { useMutation } from '@tanstack/react-query';
import type { MePatch, User } from '@pa/shared';
import { api } from '../../../lib/api-client';
import { useRememberUser } from '../../../lib/session';

export function useUpdateMe() {
  const remember = useRememberUser();
  return useMutation({
    mutationFn: (patch: MePatch) => api<{ user: User }>('PATCH', 'me', patch),
    onSuccess: ({ user }) => remember(user),
  });
}
