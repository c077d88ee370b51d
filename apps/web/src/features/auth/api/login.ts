import { useMutation } from '@tanstack/react-query';
import type { LoginBody, Unsealed, UserEnvelope } from '@pa/shared';
import { api, withSealing } from '@/lib/api-client';
import { seal } from '@/lib/crypto';
import { useRememberUser } from '@/lib/me-query';

/** The sign-in form's values: the password as typed, sealed here just before sending. */
type LoginInput = Unsealed<LoginBody, 'password'>;

export function login(input: LoginInput) {
  return withSealing(async () => api<UserEnvelope>('POST', 'auth/login', { account: input.account, password: await seal(input.password) } satisfies LoginBody));
}

export function useLogin() {
  const remember = useRememberUser();
  return useMutation({ mutationFn: login, onSuccess: ({ user }) => remember(user) });
}
