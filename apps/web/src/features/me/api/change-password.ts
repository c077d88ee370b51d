import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, withSealing } from '../../../lib/api-client';
import { seal } from '../../../lib/crypto';
import { sessionsQuery } from './get-sessions';

export function changePassword(input: { current: string; next: string }) {
  return withSealing(async () => api('POST', 'me/password', { current: await seal(input.current), next: await seal(input.next) }));
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }) });
}
