import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationForm, ApplicationFormBody } from '@pa/shared';
import { api } from '@/lib/api-client';

/** `GET/PUT api/admin/application-form` (issue 31): the registration's questions, asked in approval mode. */
const registrationFormQuery = queryOptions({
  queryKey: ['admin', 'application-form'] as const,
  queryFn: ({ signal }) => api<ApplicationForm>('GET', 'admin/application-form', undefined, { signal }),
  staleTime: 0,
});

export const useRegistrationForm = () => useQuery(registrationFormQuery);

export function useSaveRegistrationForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApplicationFormBody) => api<ApplicationForm>('PUT', 'admin/application-form', body),
    onSuccess: (form) => queryClient.setQueryData(registrationFormQuery.queryKey, form),
  });
}
