import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffCreateBody, StaffInvite } from '@pa/shared';
import { api } from '@/lib/api-client';
import { staffQuery } from '@/lib/staff-query';

type StaffCreateInput = StaffCreateBody;

/** `POST api/admin/staff`: the only answer carrying the new person's set-password link. */
export const createStaff = (body: StaffCreateInput) => api<StaffInvite>('POST', 'admin/staff', body);

export function useCreateStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createStaff, onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQuery.queryKey }) });
}
