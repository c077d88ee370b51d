import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffMember, StaffRole, StaffStatus } from '@pa/shared';
import { api } from '../../../lib/api-client';
import { staffQuery } from './staff-list';

export interface StaffUpdateInput {
  id: string;
  role?: StaffRole;
  status?: StaffStatus;
}

/** `PATCH api/admin/staff/:id`: the person is signed out everywhere; the last active admin stays (LAST_ADMIN). */
export const updateStaff = ({ id, ...body }: StaffUpdateInput) => api<{ user: StaffMember }>('PATCH', `admin/staff/${encodeURIComponent(id)}`, body).then((r) => r.user);

export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateStaff, onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQuery.queryKey }) });
}
