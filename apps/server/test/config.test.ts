import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('the installation time zone', () => {
  it('is TIME_ZONE, else the process TZ, else UTC', () => {
    expect(loadConfig({ TIME_ZONE: 'Asia/Shanghai', TZ: 'Europe/Paris' }).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({ TZ: 'Europe/Paris' }).timeZone).toBe('Europe/Paris');
    expect(loadConfig({ TIME_ZONE: '  ', TZ: 'America/New_York' }).timeZone).toBe('America/New_York');
    expect(loadConfig({}).timeZone).toBe('UTC');
  });

  it('refuses a name that is not an IANA zone, naming the variable it came from', () => {
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(ConfigError);
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(/TIME_ZONE must be an IANA time zone/);
    expect(() => loadConfig({ TZ: 'nowhere' })).toThrow(/^TZ must be an IANA time zone/);
  });
});
