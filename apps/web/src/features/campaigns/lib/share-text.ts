import type { TFunction } from 'i18next';
import { fillShareText } from '@pa/shared/rules';

/**
 * The text a promoter pastes into a chat: the campaign's template in the reader's language
 * ({link}, {code}, {name} = the campaign's name), or a plain default when it has none.
 */
export function shareTextFor(template: string, values: { link: string; code: string; name: string }, t: TFunction): string {
  return template.trim() ? fillShareText(template, values) : t('campaign.defaultShareText', values);
}
