import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffInvite } from '@pa/shared';
import { api } from '@/lib/api-client';
import { staffQuery } from '@/lib/staff-query';

/** `POST api/admin/staff/:id/invite`: a new set-password link (any earlier one stops working). */
export const reinviteStaff = (id: string) => api<StaffInvite>('POST', `admin/staff/${encodeURIComponent(id)}/invite`);

export function useReinviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reinviteStaff, onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQuery.queryKey }) });
}
