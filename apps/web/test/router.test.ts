import { describe, expect, it } from 'vitest';
import { matchPath, parseHash } from '../src/lib/hash-router';

describe('the hash router', () => {
  it('reads the path and query from the hash', () => {
    expect(parseHash('')).toEqual({ pathname: '/', search: '' });
    expect(parseHash('#/register?invite=7K3M9QXR')).toEqual({ pathname: '/register', search: '?invite=7K3M9QXR' });
    expect(parseHash('#me')).toEqual({ pathname: '/me', search: '' });
  });

  it('matches patterns with parameters', () => {
    expect(matchPath('/links/:id', '/links/abc%20d')).toEqual({ id: 'abc d' });
    expect(matchPath('/links/:id', '/links')).toBeNull();
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/me', '/me/profile')).toBeNull();
  });

  it('takes a malformed escape in the hash for an address no route has, not an error (issue 28)', () => {
    expect(() => matchPath('/links/:id', '/links/%E0%A4%A')).not.toThrow();
    expect(matchPath('/links/:id', '/links/%E0%A4%A')).toBeNull();
    expect(matchPath('/links/:id', '/links/100%')).toBeNull();
    expect(parseHash('#/links/%zz?x=%')).toEqual({ pathname: '/links/%zz', search: '?x=%' });
  });
});
