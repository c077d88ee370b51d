import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordBody, ResetPasswordResult, Unsealed } from '@pa/shared';
import { api, withSealing } from '@/lib/api-client';
import { seal } from '@/lib/crypto';

/** The token from the link and the new password as typed, sealed here just before sending. */
type ResetPasswordInput = Unsealed<ResetPasswordBody, 'password'>;

/** `POST api/auth/reset-password`: sets the password with a one-time link; answers the account. */
export function resetPassword(input: ResetPasswordInput) {
  return withSealing(async () => api<ResetPasswordResult>('POST', 'auth/reset-password', { token: input.token, password: await seal(input.password) } satisfies ResetPasswordBody));
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
