/**
 * One language per person (issue 28, item 12): once the `me` query holds the signed-in person, the
 * app switches to the language stored on their account, whatever this browser chose.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Locale, User } from '@pa/shared';
import { followUserLocale } from '../src/lib/locale';
import { meQuery } from '../src/lib/session';

const person = (locale: Locale): User => ({
  id: 'u1', account: 'lin@example.com', displayName: 'Lin', role: 'promoter', status: 'active', locale, inviteCode: 'ABCDEFGH', inviterName: null, leaderboardOptOut: false, createdAt: 0, email: null,
});

describe('the app follows the signed-in person’s stored language', () => {
  it('switches to it on sign-in and on every later change of the account, and to nothing else', async () => {
    const client = new QueryClient();
    let shown: string = 'en';
    const applied: Locale[] = [];
    const stop = followUserLocale(client, () => shown, async (locale) => {
      applied.push(locale);
      shown = locale;
    });
    // An English browser signs in as someone whose account says zh-Hant (login answers into `me`).
    client.setQueryData(meQuery.queryKey, person('zh-Hant'));
    expect(applied).toEqual(['zh-Hant']);
    // The same language again, and other queries under `me`, change nothing.
    client.setQueryData(meQuery.queryKey, { ...person('zh-Hant'), displayName: 'Lin W' });
    client.setQueryData(['me', 'sessions'], { items: [] });
    expect(applied).toEqual(['zh-Hant']);
    // Changed on another device: the next `me` brings it here.
    client.setQueryData(meQuery.queryKey, person('fr'));
    expect(applied).toEqual(['zh-Hant', 'fr']);
    stop();
    client.setQueryData(meQuery.queryKey, person('es'));
    expect(applied).toEqual(['zh-Hant', 'fr']);
  });
});
