import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type EnrollmentStatus = 'pending' | 'approved' | 'rejected';
export type EnrollmentAction = 'approve' | 'reject';

/** AdminEnrollmentSchema in @pa/shared. */
export interface AdminEnrollment {
  id: string;
  campaignId: string;
  status: EnrollmentStatus;
  createdAt: number;
  couponCode: string | null;
  promoterId: string;
  promoterName: string;
  promoterAccount: string;
  campaignName: string;
}

export const enrollmentsQuery = (status: EnrollmentStatus, locale: string) =>
  infiniteQueryOptions({
    // The campaign names come in the reader's language.
    queryKey: ['admin', 'enrollments', status, locale] as const,
    queryFn: ({ pageParam, signal }) =>
      api<{ items: AdminEnrollment[]; nextCursor: string | null }>('GET', `admin/enrollments?status=${status}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useEnrollments = (status: EnrollmentStatus, locale: string) => useInfiniteQuery(enrollmentsQuery(status, locale));

export function useEnrollmentAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: EnrollmentAction }) => api<{ ok: true }>('POST', `admin/enrollments/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'enrollments'] }),
  });
}

/** Gives an approved enrollment a coupon code, or removes it (null). */
export function useSetCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, couponCode }: { id: string; couponCode: string | null }) => api<{ ok: true }>('PATCH', `admin/enrollments/${encodeURIComponent(id)}`, { couponCode }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'enrollments'] }),
  });
}
