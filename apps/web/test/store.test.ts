import { describe, expect, it } from 'vitest';
import { initialState, migrateStore, STORE_VERSION } from '../src/stores/app-store';

describe('the persisted store', () => {
  it('is at version 2', () => {
    expect(STORE_VERSION).toBe(2);
  });

  it('migrates a version-1 state (language, me) to the current shape', () => {
    const v1 = { language: 'zh-Hant', me: { id: 'u1', displayName: 'Ana', role: 'promoter' }, rememberMe: false };
    expect(migrateStore(v1, 1)).toEqual({
      locale: 'zh-Hant',
      user: { id: 'u1', displayName: 'Ana', role: 'promoter' },
      preferences: { rememberAccount: false },
      drafts: {},
    });
  });

  it('drops an unknown locale and fills missing parts with defaults', () => {
    expect(migrateStore({ language: 'de-DE' }, 1)).toEqual({ ...initialState });
    expect(migrateStore(undefined, 0)).toEqual({ ...initialState });
  });

  it('never keeps secrets in drafts, even from an older stored state', () => {
    const migrated = migrateStore({ locale: 'en', user: null, preferences: {}, drafts: { register: { account: 'a@b.co', password: 'x1', newPassword: 'y', accountNumber: '6222' } } }, 2);
    expect(migrated.drafts).toEqual({ register: { account: 'a@b.co' } });
  });
});
