import { useMutation } from '@tanstack/react-query';
import type { RegisterBody, Unsealed, UserEnvelope } from '@pa/shared';
import { api, withSealing } from '@/lib/api-client';
import { seal } from '@/lib/crypto';
import { useRememberUser } from '@/lib/session';

/** The register form's values: the password as typed, sealed here just before sending. */
export type RegisterInput = Unsealed<RegisterBody, 'password'>;

export function register(input: RegisterInput) {
  return withSealing(async () =>
    api<UserEnvelope>('POST', 'auth/register', {
      account: input.account,
      displayName: input.displayName,
      password: await seal(input.password),
      locale: input.locale,
      ...(input.inviteCode ? { inviteCode: input.inviteCode } : {}),
      ...(input.groupCode ? { groupCode: input.groupCode } : {}),
      ...(input.answers && Object.keys(input.answers).length > 0 ? { answers: input.answers } : {}),
    } satisfies RegisterBody),
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
