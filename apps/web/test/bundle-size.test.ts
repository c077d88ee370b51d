import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module script without type declarations
import { BUDGET_BYTES, signInFirstVisit } from '../../../scripts/bundle-size.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');

describe('first-visit budget', () => {
  it('the sign-in page loads at most 110 KB of gzipped JavaScript in every language (needs `npm run build`)', () => {
    const result = signInFirstVisit() as { total: number; rows: { file: string }[]; byLocale: Record<string, number> };
    expect(result.rows.length).toBeGreaterThanOrEqual(2);
    expect(BUDGET_BYTES).toBe(110 * 1024);
    expect(result.total).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(Object.keys(result.byLocale).sort()).toEqual(['en', 'es', 'fr', 'zh-Hans', 'zh-Hant']);
    for (const total of Object.values(result.byLocale)) expect(total).toBeLessThanOrEqual(result.total);
  });

  it('a first visit takes sign-in’s texts only: neither the promoter app’s nor the console’s (nor the catalogue’s parts that come with them), nor antd-mobile’s packs', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const catalogueParts = Object.entries(manifest).filter(([src]) => /packages\/shared\/src\/texts\/(notifications|conversions|audit)\/[\w-]+\.ts$/.test(src));
    // Each part in each language, a chunk of its own (src/i18n/index.ts loads them lazily).
    expect(catalogueParts).toHaveLength(3 * 5);
    const later = Object.entries(manifest)
      .filter(([src]) => /src\/i18n\/locales\/[\w-]+\/(app|console)\.json$/.test(src) || /antd-mobile\/es\/locales\/[a-z]{2}-[A-Z]{2}\.js$/.test(src))
      .map(([, chunk]) => chunk.file)
      .concat(catalogueParts.map(([, chunk]) => chunk.file));
    // The module listing those parts is a chunk of its own too, not in the entry.
    const loaders = manifest['src/i18n/catalogue.ts'];
    expect(loaders).toBeDefined();
    later.push(loaders!.file);
    expect(later.length).toBeGreaterThanOrEqual(25);
    const result = signInFirstVisit() as { rows: { file: string }[] };
    expect(result.rows.map((r) => r.file).filter((f) => later.includes(f))).toEqual([]);
    const preload = JSON.parse(fs.readFileSync(path.join(dist, 'preload.json'), 'utf8')) as { locales: Record<string, string[]>; homeTexts: Record<string, string[]> };
    // What index.html preloads for a first visit is sign-in's texts; the rest only for a visitor coming back signed in.
    for (const files of Object.values(preload.locales)) expect(files.filter((f) => later.includes(f))).toEqual([]);
    expect(preload.homeTexts.fr!.some((f) => later.includes(f))).toBe(true);
    // Home (a signed-in visitor's first screen) preloads the inbox's and the conversion terms' French chunks with the app's texts.
    const frParts = catalogueParts.filter(([src]) => /\/(notifications|conversions)\/fr\.ts$/.test(src)).map(([, chunk]) => chunk.file);
    expect(frParts).toHaveLength(2);
    expect(preload.homeTexts.fr).toEqual(expect.arrayContaining([...frParts, loaders!.file]));
  });
});
