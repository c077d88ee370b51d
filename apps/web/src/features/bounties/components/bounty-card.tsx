import { useTranslation } from 'react-i18next';
import type { PromoterBounty } from '@pa/shared';
import { formatLastDay, formatMoney } from '@/lib/format';
import { Link } from '@/lib/hash-router';
import { progressPercent, progressText } from '../lib/bounty-text';

/** What the promoter's latest proof came to, in words (submission bounties). */
export function SubmissionState({ bounty }: { bounty: PromoterBounty }) {
  const { t } = useTranslation();
  const s = bounty.submission;
  if (!s) return null;
  return (
    <p className={`bounty-submission-state is-${s.status}`} data-testid="bounty-submission-state" role="status">
      <strong>{t(`bounties.submission.${s.status}`)}</strong>
      {s.status === 'rejected' && s.reason ? <span className="bounty-submission-reason">{t('bounties.submission.reason', { reason: s.reason })}</span> : null}
    </p>
  );
}

/**
 * One bounty on the promoter's list: name, reward, description, and either the progress toward
 * its goal (bar and words) or the state of the promoter's proof; earned, and the end date.
 */
export function BountyCard({ bounty, currency, open = false }: { bounty: PromoterBounty; currency: string; open?: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const b = bounty;
  const percent = b.goal && b.progress ? progressPercent(b.goal, b.progress.current) : 0;
  const earnedLabel = b.kind === 'performance' && b.goal?.period === 'month' ? t('bounties.earnedMonth') : t('bounties.earned');
  const canSend = b.kind === 'submission' && !b.earned && b.submission?.status !== 'pending';
  return (
    <article className={`card bounty-card${b.earned ? ' is-earned' : ''}`} data-testid={`bounty-card-${b.id}`} aria-labelledby={`bounty-${b.id}-name`}>
      <div className="bounty-card-head">
        <div className="bounty-card-title">
          <h2 id={`bounty-${b.id}-name`}>{b.name}</h2>
          <span className="bounty-card-campaign">{b.campaignName}</span>
        </div>
        <span className="bounty-card-reward" aria-label={t('bounties.rewardLabel', { amount: formatMoney(b.reward, currency, locale) })}>{formatMoney(b.reward, currency, locale)}</span>
      </div>
      {b.description ? <p className={`bounty-card-description${open ? ' is-open' : ''}`}>{b.description}</p> : null}
      {b.kind === 'performance' && b.goal && b.progress ? (
        <div className="bounty-progress">
          <div className="bounty-progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={progressText(t, b.goal, b.progress.current, currency, locale)}>
            <span style={{ width: `${percent}%` }} />
          </div>
          <p className="bounty-progress-text" data-testid="bounty-progress">{progressText(t, b.goal, b.progress.current, currency, locale)}</p>
        </div>
      ) : null}
      {b.kind === 'submission' && !b.earned ? <SubmissionState bounty={b} /> : null}
      <div className="bounty-card-foot">
        {b.earned ? <span className="bounty-earned" data-testid="bounty-earned">✓ {earnedLabel}</span> : null}
        {b.endsAt !== null ? <span className="bounty-card-ends">{t('bounties.endsOn', { date: formatLastDay(b.endsAt, locale) })}</span> : <span className="bounty-card-ends">{t('bounties.noEnd')}</span>}
      </div>
      {!open && b.kind === 'submission' && !b.earned ? (
        <Link to={`/bounties/${encodeURIComponent(b.id)}`} className="bounty-card-action" data-testid={`bounty-open-${b.id}`}>
          {canSend ? (b.submission?.status === 'rejected' ? t('bounties.sendAgain') : t('bounties.sendProof')) : t('bounties.seeProof')}
        </Link>
      ) : null}
    </article>
  );
}
