import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailMessage, MailMessageEnvelope, MailSettings, MailTestBody, Page } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { MailMessage, MailSettings };

const PAGE = 20;

/** `GET api/admin/mail` (admins): whether e-mail is on, through which server and from whom, and the outbox's counts. */
const mailSettingsQuery = queryOptions({
  queryKey: ['admin', 'mail'] as const,
  queryFn: ({ signal }) => api<MailSettings>('GET', 'admin/mail', undefined, { signal }),
});

/** `GET api/admin/mail/messages`: newest first, a page at a time. */
const mailMessagesQuery = infiniteQueryOptions({
  queryKey: ['admin', 'mail', 'messages'] as const,
  queryFn: ({ pageParam, signal }) => {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (pageParam) query.set('cursor', pageParam);
    return api<Page<MailMessage>>('GET', `admin/mail/messages?${query.toString()}`, undefined, { signal });
  },
  initialPageParam: '',
  getNextPageParam: (last) => last.nextCursor ?? undefined,
});

/** Both asked again every 3 s while a message is waiting to be sent (a test just sent, a retry due). */
const whilePending = (pending: boolean) => (pending ? 3000 : false);

export const useMailSettings = () => useQuery({ ...mailSettingsQuery, refetchInterval: (q) => whilePending((q.state.data?.counts.pending ?? 0) > 0) });

export const useMailMessages = () =>
  useInfiniteQuery({ ...mailMessagesQuery, refetchInterval: (q) => whilePending(q.state.data?.pages.some((p) => p.items.some((m) => m.status === 'pending')) ?? false) });

/**
 * `POST api/admin/mail/test`: a test message to `to`, else to the admin's own address
 * (MAIL_DISABLED while e-mail is off). The answer is the message, queued.
 */
export function useSendTestMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailTestBody) => api<MailMessageEnvelope>('POST', 'admin/mail/test', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailSettingsQuery.queryKey }),
  });
}
