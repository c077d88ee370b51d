import { describe, expect, it } from 'vitest';
import { CROCKFORD_ALPHABET } from '@pa/shared';
import { newId } from '../src/platform/ids';

/** An id's parts back as numbers: its 48-bit time and its 80 random bits. */
function decode(id: string) {
  let time = 0;
  for (const c of id.slice(0, 10)) time = time * 32 + CROCKFORD_ALPHABET.indexOf(c);
  let random = 0n;
  for (const c of id.slice(10)) random = random * 32n + BigInt(CROCKFORD_ALPHABET.indexOf(c));
  return { time, random };
}

describe('newId', () => {
  it('is 26 Crockford base32 characters: the time in milliseconds, then 80 random bits', () => {
    const at = Date.UTC(2026, 10, 22, 13, 0, 0, 123);
    const id = newId(at + 10_000_000);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decode(id).time).toBe(at + 10_000_000);
  });

  it('increases within a millisecond (the random part plus one) and sorts in creation order', () => {
    const at = Date.UTC(2030, 0, 1);
    const ids = Array.from({ length: 5_000 }, () => newId(at));
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i]! > ids[i - 1]!).toBe(true);
      expect(decode(ids[i]!).random - decode(ids[i - 1]!).random).toBe(1n);
    }
    // A clock that steps back keeps the order too.
    const later = newId(at - 5);
    expect(later > ids.at(-1)!).toBe(true);
    expect(decode(later).time).toBe(at);
  });

  it('draws fresh random bits in each new millisecond, across the pool refills', () => {
    const start = Date.UTC(2031, 0, 1);
    const ids = Array.from({ length: 2_000 }, (_, i) => newId(start + i));
    expect(new Set(ids.map((id) => id.slice(10))).size).toBe(ids.length);
    const highs = new Set(ids.map((id) => id.slice(10, 18)));
    expect(highs.size).toBeGreaterThan(1_990);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  // Last: the process's ids never go back in time after this one.
  it('holds the largest 48-bit time', () => {
    expect(decode(newId(2 ** 48 - 1)).time).toBe(2 ** 48 - 1);
  });
});
