import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordResult } from '@pa/shared';
import { api, withSealing } from '../../../lib/api-client';
import { seal } from '../../../lib/crypto';

export interface ResetPasswordInput {
  token: string;
  password: string;
}

/** `POST api/auth/reset-password`: sets the password with a one-time link; answers the account. */
export function resetPassword(input: ResetPasswordInput) {
  return withSealing(async () => api<ResetPasswordResult>('POST', 'auth/reset-password', { token: input.token, password: await seal(input.password) }));
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
