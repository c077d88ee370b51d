/**
 * Demo data for `npm start`: on a database with no users, an admin, an operator and three
 * promoters (the third invited by the first). Passwords are random and printed once.
 */
import { randomBytes } from 'node:crypto';
import type { Locale } from '@pa/shared';
import type { Db } from './types';
import { hashPassword } from '../platform/crypto/password';
import { insertUser } from '../modules/users/repository';

interface DemoAccount {
  account: string;
  displayName: string;
  role: 'admin' | 'operator' | 'promoter';
  locale: Locale;
  invitedBy?: string;
}

const ACCOUNTS: DemoAccount[] = [
  { account: 'admin@demo.example', displayName: 'Demo Admin', role: 'admin', locale: 'en' },
  { account: 'operator@demo.example', displayName: 'Demo Operator', role: 'operator', locale: 'en' },
  { account: 'lin@demo.example', displayName: 'Lin Wei (demo)', role: 'promoter', locale: 'zh-Hans' },
  { account: 'camille@demo.example', displayName: 'Camille (demo)', role: 'promoter', locale: 'fr' },
  { account: 'sofia@demo.example', displayName: 'Sofía (demo)', role: 'promoter', locale: 'es', invitedBy: 'lin@demo.example' },
];

/** Random password meeting the rules: letters and digits, 14 characters. */
function demoPassword(): string {
  const raw = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  return `Demo${raw.slice(0, 8)}7`;
}

export async function seedDemo(db: Db): Promise<{ account: string; password: string; role: string }[] | null> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const created: { account: string; password: string; role: string }[] = [];
  const ids = new Map<string, string>();
  for (const a of ACCOUNTS) {
    const password = demoPassword();
    const id = await insertUser(db, {
      account: a.account,
      displayName: a.displayName,
      passwordHash: await hashPassword(password),
      role: a.role,
      status: 'active',
      locale: a.locale,
      parentId: a.invitedBy ? (ids.get(a.invitedBy) ?? null) : null,
    });
    ids.set(a.account, id);
    created.push({ account: a.account, password, role: a.role + (a.invitedBy ? ` (invited by ${a.invitedBy})` : '') });
  }
  return created;
}
