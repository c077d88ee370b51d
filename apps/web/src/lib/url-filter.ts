import { useCallback } from 'react';
import { navigate, useLocation, useSearchParams } from './hash-router';

/**
 * A list's filter kept in the address (`?status=…`), so coming back to the list, reloading it or
 * following a link to it (the overview's work queue) shows the same rows. An unknown or missing
 * value reads as `fallback`, which the address then leaves out; the other parameters stay.
 */
export function useUrlFilter<T extends string>(name: string, allowed: readonly T[], fallback: T): [T, (value: T) => void] {
  const params = useSearchParams();
  const { pathname } = useLocation();
  const raw = params.get(name) ?? '';
  const value = (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
  const set = useCallback((next: T) => {
    const query = new URLSearchParams(params);
    if (next === fallback) query.delete(name);
    else query.set(name, next);
    const qs = query.toString();
    navigate(`${pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  }, [params, pathname, name, fallback]);
  return [value, set];
}
