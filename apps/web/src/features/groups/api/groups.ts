/**
 * The groups page's calls (`api/admin/groups…`, issue 31): the list (lib/groups-query.ts, shared
 * with the promoters table), create, change, delete, a new invite link, and a group's questions.
 * Every change refetches the groups and the promoters (whose group may have changed).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationForm, ApplicationFormBody, GroupCreate, GroupDeleted, GroupEnvelope, GroupPatch } from '@pa/shared';
import { api } from '@/lib/api-client';
import { groupsQuery } from '@/lib/groups-query';

const base = (id: string) => `admin/groups/${encodeURIComponent(id)}`;

export const useGroups = () => useQuery(groupsQuery);

function useGroupChange<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: groupsQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'promoters'] }),
    ]),
  });
}

export const useCreateGroup = () => useGroupChange((body: GroupCreate) => api<GroupEnvelope>('POST', 'admin/groups', body));
export const useUpdateGroup = () => useGroupChange(({ id, ...patch }: GroupPatch & { id: string }) => api<GroupEnvelope>('PATCH', base(id), patch));
export const useDeleteGroup = () => useGroupChange((id: string) => api<GroupDeleted>('DELETE', base(id)));
export const useRenewGroupLink = () => useGroupChange((id: string) => api<GroupEnvelope>('POST', `${base(id)}/invite-code`));

const questionsQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'groups', id, 'questions'] as const,
    queryFn: ({ signal }) => api<ApplicationForm>('GET', `${base(id)}/questions`, undefined, { signal }),
    staleTime: 0,
  });

export const useGroupQuestions = (id: string) => useQuery(questionsQuery(id));

export function useSaveGroupQuestions(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApplicationFormBody) => api<ApplicationForm>('PUT', `${base(id)}/questions`, body),
    onSuccess: (form) => {
      queryClient.setQueryData(questionsQuery(id).queryKey, form);
      return queryClient.invalidateQueries({ queryKey: groupsQuery.queryKey, exact: true });
    },
  });
}
