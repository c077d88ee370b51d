import { useLocation } from '@/lib/hash-router';
import BountiesAdminPage from './bounties-admin-page';
import BountySubmissionsPage from './bounty-submissions-page';

/**
 * `#/admin/campaigns/:id/bounties` and `#/admin/bounties/submissions` (routes.tsx): a campaign's
 * bounties and the review queue, one part and one entry in the app's table of parts.
 */
export default function ConsoleBountyPages() {
  const { pathname } = useLocation();
  return pathname.startsWith('/admin/bounties/') ? <BountySubmissionsPage /> : <BountiesAdminPage key={pathname} />;
}
