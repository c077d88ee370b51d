import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminSettings, SettingsPatch } from '@pa/shared';
import { api } from '@/lib/api-client';
import { settingsQuery } from '@/lib/settings-query';

export { settingsQuery };

export const useSettings = () => useQuery(settingsQuery);

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch) => api<AdminSettings>('PATCH', 'admin/settings', patch),
    onSuccess: (settings, patch) => {
      queryClient.setQueryData(settingsQuery.queryKey, settings);
      // A new time zone moved every per-day figure; a new currency shows in every amount.
      if (patch.timeZone !== undefined || patch.currency !== undefined) void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'admin' || q.queryKey[1] !== 'settings' });
    },
    // A refusal (the currency locked meanwhile) shows the settings as they are now.
    onError: () => void queryClient.invalidateQueries({ queryKey: settingsQuery.queryKey }),
  });
}
