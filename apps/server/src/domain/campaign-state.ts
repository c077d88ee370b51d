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

/** The campaign fields its schedule is read from (epoch ms). */
interface CampaignSchedule {
  status: CampaignStatus;
  starts_at: number | null;
  ends_at: number | null;
  /** Nothing of an ended campaign can change (fields, status, images), so for one this is when it ended. */
  updated_at: number;
}

/** Whether an ended campaign ended on its schedule (by the scheduler, or by hand once endsAt had passed). */
const endedOnSchedule = (c: CampaignSchedule) => c.status === 'ended' && c.ends_at !== null && Number(c.ends_at) <= Number(c.updated_at);

/** Why a lead or sale that happened at `occurredAt` counts for nothing: outside the campaign's schedule. */
type ScheduleReason = 'campaign_not_started' | 'campaign_ended';

/**
 * Whether a lead or sale is recorded at all: while the campaign is active, and after it has ended
 * on its schedule, so a sale made before endsAt but reported after the end (a merchant's retry,
 * the scheduler's minute) still counts — `outsideSchedule` then judges it by when it occurred. A
 * draft, a paused campaign and one ended by hand before its endsAt (or with none) answer
 * CAMPAIGN_NOT_ACTIVE, whenever the report comes.
 */
export function takesConversions(c: CampaignSchedule): boolean {
  return c.status === 'active' || endedOnSchedule(c);
}

/**
 * The schedule bounds conversions as it bounds redirects: one that happened before startsAt, or at
 * or after endsAt (or after the campaign was ended by hand, if earlier), is stored unattributed
 * with this reason. Judged by the conversion's occurredAt, not by when it was reported.
 */
export function outsideSchedule(c: CampaignSchedule, occurredAt: number): ScheduleReason | null {
  if (c.starts_at !== null && occurredAt < Number(c.starts_at)) return 'campaign_not_started';
  const end = c.status === 'ended' ? Math.min(c.ends_at === null ? Infinity : Number(c.ends_at), Number(c.updated_at)) : c.ends_at === null ? Infinity : Number(c.ends_at);
  if (occurredAt >= end) return 'campaign_ended';
  return null;
}
