import type { CampaignStatus } from '@pa/shared';

/** Campaign: draft → active ↔ paused → ended (PRODUCT.md §5). */
const NEXT: Record<CampaignStatus, CampaignStatus[]> = {
  draft: ['active'],
  active: ['paused', 'ended'],
  paused: ['active', 'ended'],
  ended: [],
};

export function canMoveCampaign(from: CampaignStatus, to: CampaignStatus): boolean {
  return NEXT[from].includes(to);
}
