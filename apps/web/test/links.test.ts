import { describe, expect, it } from 'vitest';
import { inviteLink, trackedLink } from '../src/lib/links';

describe('addresses handed out by the app', () => {
  it.each([
    ['https://promo.example.com/#/links/01H', 'https://promo.example.com/r/Summer24'],
    ['https://example.com/promo/#/links/01H?x=1', 'https://example.com/promo/r/Summer24'],
    ['https://example.com/a/b/index.html?utm=1#/poster/01H', 'https://example.com/a/b/r/Summer24'],
  ])('a tracked link sits beside the app at %s', (href, expected) => {
    expect(trackedLink('Summer24', href)).toBe(expected);
  });

  it('escapes nothing a code may contain, and the invite link keeps the page but not its query', () => {
    expect(trackedLink('a-b_c', 'http://127.0.0.1:3000/')).toBe('http://127.0.0.1:3000/r/a-b_c');
    expect(inviteLink('ABCD1234', 'https://example.com/promo/?from=x#/team')).toBe('https://example.com/promo/#/register?invite=ABCD1234');
  });
});
