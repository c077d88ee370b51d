import { afterEach, describe, expect, it, vi } from 'vitest';
import { pullDistance, PULL_THRESHOLD } from '../src/components/pull-to-refresh';
import { radioKeyTarget } from '../src/components/segmented-switch';
import { lastRange, rememberRange } from '../src/features/home/lib/range';

describe('the range and metric switches (a radio group)', () => {
  it('move the choice with the arrow keys, wrapping round, and jump with Home and End', () => {
    expect(radioKeyTarget('ArrowRight', 0, 4)).toBe(1);
    expect(radioKeyTarget('ArrowDown', 2, 4)).toBe(3);
    expect(radioKeyTarget('ArrowRight', 3, 4)).toBe(0);
    expect(radioKeyTarget('ArrowLeft', 0, 4)).toBe(3);
    expect(radioKeyTarget('ArrowUp', 1, 4)).toBe(0);
    expect(radioKeyTarget('Home', 2, 4)).toBe(0);
    expect(radioKeyTarget('End', 0, 2)).toBe(1);
  });

  it('leave other keys alone (Tab leaves the group, Space and Enter press the button)', () => {
    for (const key of ['Tab', ' ', 'Enter', 'a']) expect(radioKeyTarget(key, 1, 4)).toBeNull();
  });
});

describe('pull to refresh', () => {
  it('moves the content half the finger’s travel, then less, up to a limit', () => {
    expect(pullDistance(0)).toBe(0);
    expect(pullDistance(60)).toBe(30);
    expect(pullDistance(PULL_THRESHOLD * 2)).toBe(PULL_THRESHOLD);
    expect(pullDistance(PULL_THRESHOLD * 2 + 40)).toBe(PULL_THRESHOLD + 10);
    expect(pullDistance(10_000)).toBe(120);
  });
});

describe('the range Home opens on', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is the one last picked in this tab, else today', () => {
    const store = new Map<string, string>();
    vi.stubGlobal('sessionStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) });
    expect(lastRange()).toBe('today');
    rememberRange('30d');
    expect(lastRange()).toBe('30d');
    store.set('pa-home-range', 'forever');
    expect(lastRange()).toBe('today');
  });

  it('is today where the tab keeps nothing', () => {
    vi.stubGlobal('sessionStorage', { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } });
    expect(() => rememberRange('7d')).not.toThrow();
    expect(lastRange()).toBe('today');
  });
});
