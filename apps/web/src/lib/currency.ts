import { useQuery } from '@tanstack/react-query';
import type { CampaignList } from '@pa/shared';
import { api } from './api-client';
import { useMe } from './session';
import { settingsQuery } from './settings-query';

/** ISO 4217 "no currency": amounts still show, with the generic currency sign. */
const UNKNOWN = 'XXX';

/**
 * The installation currency money fields are in. Admins read it from the settings; operators
 * may not, so they take it from the campaign list every signed-in user sees (empty until a
 * campaign is active, in which case amounts show with the generic currency sign).
 */
export function useCurrency(): { currency: string | undefined } {
  const me = useMe();
  const admin = me.data?.role === 'admin';
  const settings = useQuery({ ...settingsQuery, enabled: admin });
  const visible = useQuery({
    queryKey: ['admin', 'currency', 'visible'] as const,
    queryFn: ({ signal }) => api<CampaignList>('GET', 'campaigns?limit=1', undefined, { signal }).then((r) => r.items[0]?.currency ?? UNKNOWN),
    enabled: me.data !== undefined && !admin,
    staleTime: 5 * 60_000,
  });
  if (admin) return { currency: settings.data?.currency ?? (settings.isError ? UNKNOWN : undefined) };
  return { currency: visible.data ?? (visible.isError ? UNKNOWN : undefined) };
}
