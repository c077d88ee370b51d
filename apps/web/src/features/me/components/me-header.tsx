import { useTranslation } from 'react-i18next';
import type { User } from '@pa/shared';

/** Who is signed in: initial, name, account and role — the head of the phone's Me and of the desk's own page. */
export function MeHeader({ user }: { user: Pick<User, 'displayName' | 'account' | 'role'> }) {
  const { t } = useTranslation();
  return (
    <header className="me-header">
      <div className="avatar" aria-hidden>{[...user.displayName][0]?.toUpperCase()}</div>
      <div className="me-header-text">
        <h1 data-testid="me-name">{user.displayName}</h1>
        <p>{user.account}</p>
        <span className="role-tag">{t(`me.roles.${user.role}`)}</span>
      </div>
    </header>
  );
}
