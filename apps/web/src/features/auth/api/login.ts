import { useMutation } from '@tanstack/react-query';
import type { User } from '@pa/shared';
import { api, withSealing } from '../../../lib/api-client';
import { seal } from '../../../lib/crypto';
import { useRememberUser } from '../../../lib/session';

export interface LoginInput {
  account: string;
  password: string;
}

export function login(input: LoginInput) {
  return withSealing(async () => api<{ user: User }>('POST', 'auth/login', { account: input.account, password: await seal(input.password) }));
}

export function useLogin() {
  const remember = useRememberUser();
  return useMutation({ mutationFn: login, onSuccess: ({ user }) => remember(user) });
}
