/**
 * A promoter group's name as the console shows it: the default group, while it keeps the name
 * migration 021 gave it, in the reader's language (docs/groups.md); every other name as typed.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isSeededDefaultGroup } from '@pa/shared';

export function useGroupName(): (group: { id: string; name: string }) => string {
  const { t } = useTranslation();
  return useCallback((group) => (isSeededDefaultGroup(group) ? t('groupsAdmin.defaultName') : group.name), [t]);
}
