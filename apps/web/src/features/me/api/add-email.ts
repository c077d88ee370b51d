import { useMutation } from '@tanstack/react-query';
import type { EmailBody, EmailPending } from '@pa/shared';
import { api } from '@/lib/api-client';

/** `POST api/me/email`: mails a one-time link to the address; it counts once opened. */
export const addEmail = (body: EmailBody) => api<EmailPending>('POST', 'me/email', body);

export const useAddEmail = () => useMutation({ mutationFn: addEmail });
