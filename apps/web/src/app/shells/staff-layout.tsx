/**
 * Staff pages (/admin/*): at desk width (lib/desk.ts, ≥ 1024 px) inside the console shell — side
 * navigation and a wide content area, loaded on demand so promoters never download it. Below that
 * width the phone pages exactly as they were; the overview (#/admin), staff's Home there, keeps
 * the tab bar. `StaffHome` sends staff who open Home (#/, also where sign-in lands) to the overview.
 * The module itself is loaded with the first route that has one of these layouts (app/routes.tsx).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useDesk } from '@/lib/desk';
import { Navigate, useLocation } from '@/lib/hash-router';
import { useMe } from '@/lib/session';
import { PageLoading } from '@/components/page-status';
import TabLayout from './phone/tab-layout';

const StaffShell = lazy(() => import('./desk/desk-shell'));

/** Where staff land: the program overview. */
const STAFF_HOME = '/admin';

export default function StaffLayout({ children }: { children: ReactNode }) {
  const desk = useDesk();
  const me = useMe();
  const { pathname } = useLocation();
  const staff = me.data !== undefined && me.data.role !== 'promoter';
  if (desk && staff) {
    return (
      <Suspense fallback={<PageLoading />}>
        <StaffShell>{children}</StaffShell>
      </Suspense>
    );
  }
  if (staff && pathname === STAFF_HOME) return <TabLayout>{children}</TabLayout>;
  return <>{children}</>;
}

/** Where a staff member's own page is at a desk (their name in the navigation opens it). */
const STAFF_ME = '/admin/me';

/** Me is the phone's, with promoter tabs: staff at a desk opening it go to their page in the console. */
export function DeskMe({ children }: { children: ReactNode }) {
  const desk = useDesk();
  const me = useMe();
  if (desk && me.data && me.data.role !== 'promoter') return <Navigate to={STAFF_ME} replace />;
  return <>{children}</>;
}

/**
 * Their page in the console is a desk's: on a phone (a narrowed window, an address from the desk)
 * it would have no way back, so it opens the phone's Me, which has the console's entries and tabs.
 */
export function PhoneMe({ children }: { children: ReactNode }) {
  const desk = useDesk();
  if (!desk) return <Navigate to="/me" replace />;
  return <>{children}</>;
}

/** Home is the promoter's; staff opening it (or landing there after sign-in) go to the overview. */
export function StaffHome({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.data && me.data.role !== 'promoter') return <Navigate to={STAFF_HOME} replace />;
  return <>{children}</>;
}
