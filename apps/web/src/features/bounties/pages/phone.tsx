import { useParams } from '@/lib/hash-router';
import BountiesPage from './bounties-page';
import BountyPage from './bounty-page';

/**
 * `#/bounties` and `#/bounties/:id` (routes.tsx): the promoter's list and one bounty, one part
 * and one entry in the app's table of parts.
 */
export default function PromoterBountyPages() {
  const { id } = useParams();
  return id ? <BountyPage key={id} /> : <BountiesPage />;
}
