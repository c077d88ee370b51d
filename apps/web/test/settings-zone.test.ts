import { describe, expect, it } from 'vitest';
import { currencyLabel, offsetMinutes, searchZones, timeZones, utcOffset, zoneLabel } from '../src/features/settings/lib/settings-zone';

// A moment outside daylight saving in both hemispheres' usual zones under test (January).
const JAN = Date.UTC(2026, 0, 15, 12);
const JUL = Date.UTC(2026, 6, 15, 12);

describe('the time zone list', () => {
  it('holds every zone the browser knows, UTC first and once', () => {
    const zones = timeZones();
    expect(zones[0]).toBe('UTC');
    expect(zones.filter((z) => z === 'UTC')).toHaveLength(1);
    expect(zones).toContain('Asia/Shanghai');
    expect(zones.length).toBeGreaterThan(300);
  });

  it('writes offsets as UTC±hh:mm, following daylight saving', () => {
    expect(utcOffset('Asia/Shanghai', JAN)).toBe('UTC+08:00');
    expect(utcOffset('Asia/Kolkata', JAN)).toBe('UTC+05:30');
    expect(utcOffset('UTC', JAN)).toBe('UTC');
    expect(utcOffset('America/New_York', JAN)).toBe('UTC\u221205:00');
    expect(utcOffset('America/New_York', JUL)).toBe('UTC\u221204:00');
    expect(offsetMinutes('America/St_Johns', JAN)).toBe(-210);
    expect(offsetMinutes('UTC', JAN)).toBe(0);
  });

  it('finds by city first, then by region or part of a name, and by offset', () => {
    const zones = timeZones();
    expect(searchZones(zones, 'shanghai', JAN)).toEqual(['Asia/Shanghai']);
    expect(searchZones(zones, 'new york', JAN)[0]).toBe('America/New_York');
    expect(searchZones(zones, 'Europe/Par', JAN)).toEqual(['Europe/Paris']);
    // "paris" as a city comes before names merely containing it.
    expect(searchZones(zones, 'par', JAN)[0]).toBe('America/Paramaribo');
    expect(searchZones(zones, 'sao paulo', JAN)).toEqual(['America/Sao_Paulo']);
    expect(searchZones(zones, '+8', JAN)).toContain('Asia/Shanghai');
    // India's zone is listed under its old name (Asia/Calcutta) by some ICU versions.
    expect(searchZones(zones, 'UTC+05:30', JAN).some((z) => z === 'Asia/Kolkata' || z === 'Asia/Calcutta')).toBe(true);
    expect(searchZones(zones, '+8', JAN).every((z) => offsetMinutes(z, JAN) === 480)).toBe(true);
    expect(searchZones(zones, '-3', JAN)).toContain('America/Sao_Paulo');
    expect(searchZones(zones, 'atlantis', JAN)).toEqual([]);
    expect(searchZones(zones, '  ', JAN)).toHaveLength(zones.length);
  });

  it('reads names as people write them', () => {
    expect(zoneLabel('America/Argentina/Buenos_Aires')).toBe('America / Argentina / Buenos Aires');
  });
});

describe('currency names', () => {
  it('pairs the code with its name in the reader’s language', () => {
    expect(currencyLabel('EUR', 'en')).toBe('EUR — Euro');
    expect(currencyLabel('CNY', 'zh-Hans')).toBe('CNY — 人民币');
  });
});
