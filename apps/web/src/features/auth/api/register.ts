import { useMutation } from '@tanstack/react-query';
import type { Locale, User } from '@pa/shared';
import { api, withSealing } from '../../../lib/api-client';
import { seal } from '../../../lib/crypto';
import { useRememberUser } from '../../../lib/session';

export interface RegisterInput {
  account: string;
  displayName: string;
  password: string;
  inviteCode?: string;
  locale: Locale;
}

export function register(input: RegisterInput) {
  return withSealing(async () =>
    api<{ user: User }>('POST', 'auth/register', {
      account: input.account,
      displayName: input.displayName,
      password: await seal(input.password),
      locale: input.locale,
      ...(input.inviteCode ? { inviteCode: input.inviteCode } : {}),
    }),
  );
}

export function useRegister() {
  const remember = useRememberUser();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user }) => {
      if (user.status === 'active') remember(user);
    },
  });
}
