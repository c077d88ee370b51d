import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminEnrollment, AdminEnrollmentList, EnrollmentAction, EnrollmentPatch, EnrollmentStatus, Ok } from '@pa/shared';
import { api, type WithId } from '@/lib/api-client';

export type { AdminEnrollment, EnrollmentAction, EnrollmentStatus };

const enrollmentsQuery = (status: EnrollmentStatus, locale: string) =>
  infiniteQueryOptions({
    // The campaign names come in the reader's language.
    queryKey: ['admin', 'enrollments', status, locale] as const,
    queryFn: ({ pageParam, signal }) =>
      api<AdminEnrollmentList>('GET', `admin/enrollments?status=${status}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useEnrollments = (status: EnrollmentStatus, locale: string) => useInfiniteQuery(enrollmentsQuery(status, locale));

export function useEnrollmentAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: EnrollmentAction }) => api<Ok>('POST', `admin/enrollments/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'enrollments'] }),
  });
}

/** Gives an approved enrollment a coupon code, or removes it (null). */
export function useSetCoupon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, couponCode }: WithId<EnrollmentPatch>) => api<Ok>('PATCH', `admin/enrollments/${encodeURIComponent(id)}`, { couponCode } satisfies EnrollmentPatch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'enrollments'] }),
  });
}
