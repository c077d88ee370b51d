import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { Link } from '@pa/shared';
import { formatNumber } from '@/lib/format';
import { navigate } from '@/lib/hash-router';

/** One of my links in a list: code, label and channel, clicks; taps through to its detail. */
export function LinkRow({ link, showCampaign }: { link: Link; showCampaign?: boolean }) {
  const { t, i18n } = useTranslation();
  const tags = [link.label, link.channel ? `#${link.channel}` : null, showCampaign ? link.campaignName : null].filter(Boolean).join(' · ');
  return (
    <List.Item
      onClick={() => navigate(`/links/${encodeURIComponent(link.id)}`)}
      data-testid={`link-${link.code}`}
      description={tags || undefined}
      extra={
        <span className="link-row-figures">
          <strong>{formatNumber(link.clicks, i18n.language)}</strong>
          <span>{t('links.clicksShort', { count: link.clicks })}</span>
        </span>
      }
    >
      <span className="link-row-code">{link.code}</span>
      {link.isDefault ? <span className="role-tag">{t('links.default')}</span> : null}
      {link.status === 'disabled' ? <span className="role-tag muted-tag">{t('links.disabled')}</span> : null}
    </List.Item>
  );
}
