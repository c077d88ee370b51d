/**
 * Home's periods, and the one last picked in this browser tab (coming back from a link's page
 * keeps it). Kept apart from the figures' formatting: app/routes.tsx reads the range to start
 * loading Home's figures with the page code, and this is all it needs.
 */
export const HOME_RANGES = ['today', '7d', '30d', 'month'] as const;
export type HomeRange = (typeof HOME_RANGES)[number];
export const isHomeRange = (value: unknown): value is HomeRange => (HOME_RANGES as readonly unknown[]).includes(value);

const RANGE_KEY = 'pa-home-range';

export function lastRange(): HomeRange {
  try {
    const value = sessionStorage.getItem(RANGE_KEY);
    return isHomeRange(value) ? value : 'today';
  } catch {
    return 'today';
  }
}

export function rememberRange(range: HomeRange) {
  try {
    sessionStorage.setItem(RANGE_KEY, range);
  } catch {
    // not remembered: Home opens on today next time
  }
}
