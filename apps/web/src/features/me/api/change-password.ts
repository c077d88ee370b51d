import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, Ok, Unsealed } from '@pa/shared';
import { api, withSealing } from '@/lib/api-client';
import { seal } from '@/lib/crypto';
import { sessionsQuery } from './get-sessions';

export function changePassword(input: Unsealed<ChangePasswordBody, 'current' | 'next'>) {
  return withSealing(async () => api<Ok>('POST', 'me/password', { current: await seal(input.current), next: await seal(input.next) } satisfies ChangePasswordBody));
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }) });
}
