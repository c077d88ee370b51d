import { Button, List } from 'antd-mobile';
import { AddOutline, SoundOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { isLocale, LOCALES } from '@pa/shared/locales';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { formatDate } from '@/lib/format';
import { navigate } from '@/lib/hash-router';
import { useAdminAnnouncements, type AdminAnnouncement, type AnnouncementFilter } from '../api/manage-announcements';
import { AnnouncementStatusTag } from '../components/announcement-status-tag';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { announcementBody, announcementTitle } from '../lib/announcement-form';
import { useUrlFilter } from '@/lib/url-filter';
import '../components/announcement-editor.css';

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
          <span className="console-line announcement-row-body" lang={shownLocale && isLocale(shownLocale) ? shownLocale : undefined}>{announcementBody(a.texts, i18n.language)}</span>
          <span className="console-line">{when}</span>
          <span className="console-line announcement-row-languages">{languages}</span>
        </>
      }
      extra={
        <span className="announcement-row-tags">
          <AnnouncementStatusTag status={a.status} testId={`admin-announcement-status-${a.id}`} />
          {a.pinned ? <span className="announcement-pin-tag">{t('announcementsAdmin.pinnedTag')}</span> : null}
        </span>
      }
    >
      <span className="console-row-name" lang={shownLocale && isLocale(shownLocale) ? shownLocale : undefined}>{announcementTitle(a.texts, i18n.language)}</span>
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
          <Button className="announcement-empty-action" color="primary" size="small" onClick={() => navigate('/admin/announcements/new')}>{t('announcementsAdmin.new')}</Button>
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

/** The language an announcement is shown in to this reader: theirs if written, else English, else the first. */
const shownLocaleOf = (a: AdminAnnouncement, language: string) => {
  const l = [language, 'en', ...Object.keys(a.texts)].find((x) => a.texts[x]?.title);
  return l && isLocale(l) ? l : undefined;
};

/** At desk: the announcements as a table (title and text, status, languages, date), each opening its editor. */
function AnnouncementsDesk({ filter, onFilter }: { filter: AnnouncementFilter; onFilter: (f: AnnouncementFilter) => void }) {
  const { t, i18n } = useTranslation();
  const announcements = useAdminAnnouncements(filter);
  const items = announcements.data?.pages.flatMap((p) => p.items) ?? [];
  const languages = (a: AdminAnnouncement) => LOCALES.filter((l) => a.texts[l]).map((l) => t(`languages.${l}`)).join(' · ');
  const when = (a: AdminAnnouncement) => (a.publishedAt !== null && a.status !== 'draft' ? a.publishedAt : a.createdAt);

  const columns: Column<AdminAnnouncement>[] = [
    {
      key: 'title',
      title: t('console.col.title'),
      sortValue: (a) => announcementTitle(a.texts, i18n.language),
      render: (a) => (
        <span lang={shownLocaleOf(a, i18n.language)}>
          <span className="data-table-strong">{announcementTitle(a.texts, i18n.language)}</span>
          <span className="data-table-sub desk-clip">{announcementBody(a.texts, i18n.language)}</span>
        </span>
      ),
    },
    {
      key: 'status',
      title: t('console.col.status'),
      sortValue: (a) => t(`announcementsAdmin.filters.${a.status}`),
      render: (a) => (
        <span className="desk-tags">
          <AnnouncementStatusTag status={a.status} testId={`admin-announcement-status-${a.id}`} />
          {a.pinned ? <span className="announcement-pin-tag">{t('announcementsAdmin.pinnedTag')}</span> : null}
        </span>
      ),
    },
    { key: 'languages', title: t('console.col.languages'), sortValue: (a) => Object.keys(a.texts).length, render: (a) => <span className="data-table-muted">{languages(a)}</span> },
    { key: 'date', title: t('console.col.date'), sortValue: when, render: (a) => <span className="data-table-nowrap">{formatDate(when(a), i18n.language)}</span> },
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminAnnouncement>({
    filename: csvFilename(`announcements-${filter}`),
    fetchPage: listPages('admin/announcements', { status: filter === 'all' ? null : filter }),
    onProgress,
    csv: 'announcements',
    columns: {
      title: (a) => announcementTitle(a.texts, i18n.language),
      status: (a) => t(`announcementsAdmin.filters.${a.status}`),
      pinned: (a) => (a.pinned ? t('console.yes') : t('console.no')),
      languages: (a) => languages(a),
      created_at: (a) => csvTime(a.createdAt),
      published_at: (a) => csvTime(a.publishedAt),
      id: (a) => csvId(a.id),
    },
  });

  if (announcements.isError) return <PageError error={announcements.error} onRetry={() => announcements.refetch()} />;
  return (
    <DataTable
      data-testid={`admin-announcements-${filter}`}
      caption={t('announcementsAdmin.title')}
      rows={items}
      rowKey={(a) => a.id}
      rowTestId={(a) => `admin-announcement-${a.id}`}
      columns={columns}
      loading={announcements.isPending}
      pagination={announcements}
      empty={<EmptyState icon={<SoundOutline />} title={t(`announcementsAdmin.empty.${filter}`)} body={t(`announcementsAdmin.emptyBody.${filter}`)} />}
      onRowClick={(a) => navigate(`/admin/announcements/${encodeURIComponent(a.id)}`)}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('announcementsAdmin.filter')} value={filter} onChange={onFilter} options={FILTERS.map((f) => ({ value: f, label: t(`announcementsAdmin.filters.${f}`) }))} testId="announcements-filter" />}
          actions={<>
            <ExportButton run={exportCsv} />
            <Button color="primary" onClick={() => navigate('/admin/announcements/new')} data-testid="new-announcement">
              <AddOutline aria-hidden /> {t('announcementsAdmin.new')}
            </Button>
          </>}
        />
      }
    />
  );
}

/** `/admin/announcements` (operators and admins): every announcement, filtered by status; new ones start here. */
export default function AnnouncementsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  // The filter lives in the address, so coming back from an announcement returns to it.
  const [filter, setFilter] = useUrlFilter<AnnouncementFilter>('status', FILTERS, DEFAULT_FILTER);
  if (desk) {
    return (
      <div className="sub-page announcement-admin-page desk-page">
        <PageNav title={t('announcementsAdmin.title')} fallback="/me" />
        <AnnouncementsDesk key={filter} filter={filter} onFilter={setFilter} />
      </div>
    );
  }
  return (
    <div className="sub-page announcement-admin-page">
      <PageNav title={t('announcementsAdmin.title')} fallback="/me" />
      <div className="console-toolbar">
        <Button color="primary" size="small" onClick={() => navigate('/admin/announcements/new')} data-testid="new-announcement">
          <AddOutline aria-hidden /> {t('announcementsAdmin.new')}
        </Button>
      </div>
      <div className="filter-bar" role="group" aria-label={t('announcementsAdmin.filter')} data-testid="announcements-filter">
        {FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            className={`chip${f === filter ? ' chip-on' : ''}`}
            aria-pressed={f === filter}
            onClick={() => setFilter(f)}
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
