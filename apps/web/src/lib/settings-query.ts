import { queryOptions } from '@tanstack/react-query';
import type { AdminSettings } from '@pa/shared';
import { api } from './api-client';

/** The installation's settings (admins only): the settings page edits them, the campaign editor and the currency read them. */
export const settingsQuery = queryOptions({
  queryKey: ['admin', 'settings'] as const,
  queryFn: ({ signal }) => api<AdminSettings>('GET', 'admin/settings', undefined, { signal }),
});
