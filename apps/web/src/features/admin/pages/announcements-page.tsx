import { Button, List } from 'antd-mobile';
import { AddOutline, SoundOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { isLocale, LOCALES } from '@pa/shared/locales';
import { EmptyState } from '../../../components/empty-state';
import { LoadMore } from '../../../components/load-more';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { formatDate } from '../../../lib/format';
import { navigate, useSearchParams } from '../../../lib/router';
import { useAdminAnnouncements, type AdminAnnouncement, type AnnouncementFilter } from '../api/announcements';
import { AnnouncementStatusTag } from '../components/announcement-status-tag';
import { announcementBody, announcementTitle } from '../lib/announcement-form';
import '../components/announcements-admin.css';

const FILTERS: AnnouncementFilter[] = ['all', 'draft', 'published', 'archived'];
const DEFAULT_FILTER: AnnouncementFilter = 'all';

function AnnouncementRow({ a }: { a: AdminAnnouncement }) {
  const { t, i18n } = useTranslation();
  const languages = LOCALES.filter((l) => a.texts[l]).map((l) => t(`languages.${l}`)).join(' · ');
  const when = a.publishedAt !== null && a.status !== 'draft'
    ? t('announcementsAdmin.publishedOn', { date: formatDate(a.publishedAt, i18n.language) })
    : t('announcementsAdmin.createdOn', { date: formatDate(a.createdAt, i18n.language) });
  // The staff member's language if written, else English, else the first one: `lang` follows the text.
  const shownLocale = [i18n.language, 'en', ...Object.keys(a.texts)].find((l) => a.texts[l]?.title);
  return (
    <List.Item
      onClick={() => navigate(`/admin/announcements/${encodeURIComponent(a.id)}`)}
      data-testid={`admin-announcement-${a.id}`}
      description={
        <>
          <span className="ca-line an-row-body" lang={shownLocale && isLocale(shownLocale) ? shownLocale : undefined}>{announcementBody(a.texts, i18n.language)}</span>
          <span className="ca-line">{when}</span>
          <span className="ca-line an-row-languages">{languages}</span>
        </>
      }
      extra={
        <span className="an-row-tags">
          <AnnouncementStatusTag status={a.status} testId={`admin-announcement-status-${a.id}`} />
          {a.pinned ? <span className="an-pin-tag">{t('announcementsAdmin.pinnedTag')}</span> : null}
        </span>
      }
    >
      <span className="ca-row-name" lang={shownLocale && isLocale(shownLocale) ? shownLocale : undefined}>{announcementTitle(a.texts, i18n.language)}</span>
    </List.Item>
  );
}

function AnnouncementList({ filter }: { filter: AnnouncementFilter }) {
  const { t } = useTranslation();
  const announcements = useAdminAnnouncements(filter);
  if (announcements.isPending) return <PageLoading />;
  if (announcements.isError) return <PageError error={announcements.error} onRetry={() => announcements.refetch()} />;
  const items = announcements.data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<SoundOutline />}
        title={t(`announcementsAdmin.empty.${filter}`)}
        body={t(`announcementsAdmin.emptyBody.${filter}`)}
        action={filter === 'all' || filter === 'draft' ? (
          <Button className="an-empty-action" color="primary" size="small" onClick={() => navigate('/admin/announcements/new')}>{t('announcementsAdmin.new')}</Button>
        ) : undefined}
      />
    );
  }
  return (
    <>
      <List data-testid={`admin-announcements-${filter}`}>
        {items.map((a) => <AnnouncementRow key={a.id} a={a} />)}
      </List>
      <LoadMore query={announcements} />
    </>
  );
}

/** `/admin/announcements` (operators and admins): every announcement, filtered by status; new ones start here. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const requested = params.get('status') ?? '';
  const filter = (FILTERS as string[]).includes(requested) ? (requested as AnnouncementFilter) : DEFAULT_FILTER;
  return (
    <div className="sub-page an-admin-page">
      <PageNav title={t('announcementsAdmin.title')} fallback="/me" />
      <div className="ca-toolbar">
        <Button color="primary" size="small" onClick={() => navigate('/admin/announcements/new')} data-testid="new-announcement">
          <AddOutline aria-hidden /> {t('announcementsAdmin.new')}
        </Button>
      </div>
      {/* The filter lives in the address, so coming back from an announcement returns to it. */}
      <div className="filter-bar" role="group" aria-label={t('announcementsAdmin.filter')} data-testid="announcements-filter">
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            className={`chip${f === filter ? ' chip-on' : ''}`}
            aria-pressed={f === filter}
            onClick={() => navigate(f === DEFAULT_FILTER ? '/admin/announcements' : `/admin/announcements?status=${f}`, { replace: true })}
            data-testid={`announcements-filter-${f}`}
          >
            {t(`announcementsAdmin.filters.${f}`)}
          </button>
        ))}
      </div>
      <AnnouncementList key={filter} filter={filter} />
    </div>
  );
}
