import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffEnvelope, StaffPatchBody } from '@pa/shared';
import { api, type WithId } from '@/lib/api-client';
import { staffQuery } from '@/lib/staff-query';

type StaffUpdateInput = WithId<StaffPatchBody>;

/** `PATCH api/admin/staff/:id`: the person is signed out everywhere; the last active admin stays (LAST_ADMIN). */
export const updateStaff = ({ id, ...body }: StaffUpdateInput) => api<StaffEnvelope>('PATCH', `admin/staff/${encodeURIComponent(id)}`, body satisfies StaffPatchBody).then((r) => r.user);

export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateStaff, onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQuery.queryKey }) });
}
