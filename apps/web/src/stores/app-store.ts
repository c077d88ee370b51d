/**
 * The one persisted client store: locale, a summary of the signed-in user, preferences and
 * unsent drafts. Versioned, with a migration function. Never a session token or a secret: the
 * session lives in an httpOnly cookie, and passwords never enter the store.
 */
import { create } from 'zustand';
import { persist, createJSONStorage } from 'zustand/middleware';
import type { Locale, Role } from '@pa/shared';
import { isLocale } from '@pa/shared/locales';

const STORE_KEY = 'pa-store';
export const STORE_VERSION = 2;

interface UserSummary {
  id: string;
  displayName: string;
  role: Role;
}

interface Preferences {
  /** Keep the account typed on the sign-in screen for next time (a shared phone turns this off). */
  rememberAccount: boolean;
}

/** Unsent form input, by form id. Only non-secret fields are ever put here. */
export type Drafts = Record<string, Record<string, string>>;

interface PersistedState {
  locale: Locale | null;
  user: UserSummary | null;
  preferences: Preferences;
  drafts: Drafts;
}

interface AppState extends PersistedState {
  setLocale(locale: Locale): void;
  setUser(user: UserSummary | null): void;
  setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void;
  saveDraft(form: string, values: Record<string, string>): void;
  clearDraft(form: string): void;
}

export const initialState: PersistedState = {
  locale: null,
  user: null,
  preferences: { rememberAccount: true },
  drafts: {},
};

const SECRET_FIELD = /pass|secret|token|ciphertext|account.?number/i;

/**
 * Brings a stored state of any earlier version up to the current shape.
 * v1 kept `language`, `me` and a `rememberMe` flag; v2 has `locale`, `user`, preferences and drafts.
 */
export function migrateStore(persisted: unknown, fromVersion: number): PersistedState {
  const old = (persisted ?? {}) as Record<string, unknown>;
  let state: Record<string, unknown> = { ...old };
  if (fromVersion < 2) {
    state = {
      locale: isLocale(old.language) ? old.language : null,
      user: (old.me as UserSummary | undefined) ?? null,
      preferences: { rememberAccount: typeof old.rememberMe === 'boolean' ? old.rememberMe : initialState.preferences.rememberAccount },
      drafts: {},
    };
  }
  return {
    locale: isLocale(state.locale) ? state.locale : null,
    user: (state.user as UserSummary | null) ?? null,
    preferences: { ...initialState.preferences, ...(state.preferences as Partial<Preferences> | undefined) },
    drafts: sanitizeDrafts((state.drafts as Drafts | undefined) ?? {}),
  };
}

function sanitizeDrafts(drafts: Drafts): Drafts {
  const out: Drafts = {};
  for (const [form, values] of Object.entries(drafts)) {
    out[form] = Object.fromEntries(Object.entries(values).filter(([k]) => !SECRET_FIELD.test(k)));
  }
  return out;
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...initialState,
      setLocale: (locale) => set({ locale }),
      setUser: (user) => set({ user }),
      setPreference: (key, value) => set((s) => ({ preferences: { ...s.preferences, [key]: value } })),
      saveDraft: (form, values) => set((s) => ({ drafts: { ...s.drafts, ...sanitizeDrafts({ [form]: values }) } })),
      clearDraft: (form) =>
        set((s) => {
          const drafts = { ...s.drafts };
          delete drafts[form];
          return { drafts };
        }),
    }),
    {
      name: STORE_KEY,
      version: STORE_VERSION,
      storage: createJSONStorage(() => localStorage),
      migrate: (persisted, version) => migrateStore(persisted, version) as AppState,
      partialize: (s): PersistedState => ({ locale: s.locale, user: s.user, preferences: s.preferences, drafts: s.drafts }),
    },
  ),
);
