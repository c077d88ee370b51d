/**
 * Per-user data a feature keeps on this device (e.g. Home's last figures) lives under one key
 * prefix, so signing out can forget all of it without knowing the features.
 */
export const USER_CACHE_PREFIX = 'pa-cache:';

/** The bits of Storage the caches use (localStorage in the app, a Map-backed fake in tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export function deviceStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (private mode, some in-app browsers)
  }
}

/** Removes cached entries under the prefix, except `keep`. */
export function clearUserCaches(prefix = USER_CACHE_PREFIX, keep?: string, storage = deviceStorage()): void {
  if (!storage) return;
  try {
    for (let i = storage.length - 1; i >= 0; i--) {
      const k = storage.key(i);
      if (k && k.startsWith(prefix) && k !== keep) storage.removeItem(k);
    }
  } catch {
    // nothing to forget
  }
}
