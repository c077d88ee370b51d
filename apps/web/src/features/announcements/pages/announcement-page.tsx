import { useTranslation } from 'react-i18next';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useParams } from '@/lib/hash-router';
import { useAdminAnnouncement } from '../api/manage-announcements';
import { AnnouncementForm } from '../components/announcement-form';
import { announcementTitle } from '../lib/announcement-form';

function EditAnnouncement({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const announcement = useAdminAnnouncement(id);
  if (announcement.isPending) return <><PageNav title={t('announcementsAdmin.edit')} fallback="/admin/announcements" /><PageLoading /></>;
  if (announcement.isError) return <><PageNav title={t('announcementsAdmin.edit')} fallback="/admin/announcements" /><PageError error={announcement.error} onRetry={() => announcement.refetch()} /></>;
  return (
    <>
      <PageNav title={announcementTitle(announcement.data.texts, i18n.language) || t('announcementsAdmin.edit')} fallback="/admin/announcements" />
      {/* Keyed by id: the form starts from the announcement once; later saves reset it themselves. */}
      <AnnouncementForm key={announcement.data.id} announcement={announcement.data} />
    </>
  );
}

/** `/admin/announcements/new` and `/admin/announcements/:id` (operators and admins). */
export default function AnnouncementPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <div className="sub-page console-page announcement-edit-page">
      {id ? (
        <EditAnnouncement id={id} />
      ) : (
        <>
          <PageNav title={t('announcementsAdmin.new')} fallback="/admin/announcements" />
          <AnnouncementForm />
        </>
      )}
    </div>
  );
}
