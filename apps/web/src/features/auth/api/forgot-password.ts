import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody, Ok } from '@pa/shared';
import { api } from '@/lib/api-client';

/**
 * `POST api/auth/forgot-password`: e-mails a one-time link when the account is an e-mail address
 * that exists; answers the same (202) either way, so nobody learns which accounts exist.
 */
export const forgotPassword = (body: ForgotPasswordBody) => api<Ok>('POST', 'auth/forgot-password', body);

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
