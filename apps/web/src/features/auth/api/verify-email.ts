import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VerifyEmailBody, VerifyEmailResult } from '@pa/shared';
import { api } from '@/lib/api-client';
import { meQuery } from '@/lib/session';

/** `POST api/auth/verify-email`: the mailed link's token makes the address the person's. */
export const verifyEmail = (body: VerifyEmailBody) => api<VerifyEmailResult>('POST', 'auth/verify-email', body);

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: verifyEmail, onSuccess: () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }) });
}
