/**
 * Home with the announcements list in its slot (features do not import each other; the app
 * composes them). One module, so that Home and the list come in one file; Home shows the list
 * below the fold, once its first screen is painted.
 */
import { AnnouncementList } from '../features/announcements/components/announcement-list';
import Home from '../features/home/pages/home-page';

export default function HomeWithAnnouncements() {
  return <Home announcements={<AnnouncementList />} />;
}
