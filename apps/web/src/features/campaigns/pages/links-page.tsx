import { Button, List } from 'antd-mobile';
import { AddOutline, LinkOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { navigate } from '@/lib/hash-router';
import { useLinks } from '../api/links';
import { LinkRow } from '../components/link-row';
import { LoadMore } from '@/components/load-more';

export default function LinksPage() {
  const { t, i18n } = useTranslation();
  const links = useLinks(i18n.language);
  const items = links.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="sub-page">
      <PageNav title={t('links.title')} fallback="/promote" />
      {links.isPending ? <PageLoading /> : links.isError ? <PageError error={links.error} onRetry={() => links.refetch()} /> : items.length === 0 ? (
        <EmptyState
          icon={<LinkOutline />}
          title={t('links.emptyTitle')}
          body={t('links.emptyBody')}
          action={<Button color="primary" className="empty-action" onClick={() => navigate('/promote')}>{t('links.browse')}</Button>}
        />
      ) : (
        <>
          <div className="page-actions">
            <Button color="primary" size="small" onClick={() => navigate('/links/new')} data-testid="links-new"><AddOutline aria-hidden /> {t('links.new')}</Button>
          </div>
          <List data-testid="links-list">
            {items.map((l) => <LinkRow key={l.id} link={l} showCampaign />)}
          </List>
          <LoadMore query={links} />
        </>
      )}
    </div>
  );
}
