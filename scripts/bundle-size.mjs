#!/usr/bin/env node
/**
 * Reports the gzip size of the JavaScript a first visit to the sign-in page loads: the entry
 * chunk and its static imports (the sign-in page is among them), and one language's sign-in
 * texts (`src/i18n/locales/<locale>/common.json` and the shared catalogue's error and field texts,
 * `packages/shared/src/texts/common/<locale>.ts`) — the largest of the five, so the figure holds
 * for every language. antd-mobile's locale pack comes with the promoter app's texts (signed-in
 * screens only; src/i18n/index.ts), so it is not counted. Fails above the budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const BUDGET_BYTES = 110 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCALES = ['zh-Hans', 'zh-Hant', 'en', 'fr', 'es'];

export function signInFirstVisit(dist = path.join(root, 'apps/web/dist')) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const closure = (key, acc = new Set()) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the build manifest: ${key}`);
    if (acc.has(chunk.file)) return acc;
    acc.add(chunk.file);
    for (const dep of chunk.imports ?? []) closure(dep, acc);
    return acc;
  };
  const gz = (file) => gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  // The sign-in page is in the entry chunk (app/routes.tsx imports it); should it become lazy again, its chunks count too.
  const base = closure('index.html');
  if (manifest['src/features/auth/pages/login-page.tsx']) closure('src/features/auth/pages/login-page.tsx', base);
  let worst = null;
  const byLocale = {};
  for (const locale of LOCALES) {
    const files = new Set(base);
    closure(`src/i18n/locales/${locale}/common.json`, files);
    const catalogue = Object.keys(manifest).find((key) => key.endsWith(`packages/shared/src/texts/common/${locale}.ts`));
    if (!catalogue) throw new Error(`not in the build manifest: the catalogue's common texts in ${locale}`);
    closure(catalogue, files);
    const rows = [...files].filter((f) => f.endsWith('.js')).map((file) => ({ file, gzip: gz(file) }));
    const total = rows.reduce((sum, r) => sum + r.gzip, 0);
    byLocale[locale] = total;
    if (!worst || total > worst.total) worst = { locale, rows, total };
  }
  return { ...worst, byLocale };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = signInFirstVisit();
  console.log(`\nJavaScript for a first visit to the sign-in page (gzip, worst locale: ${r.locale}):`);
  for (const row of r.rows.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(row.gzip / 1024).toFixed(1).padStart(7)} KB  ${row.file}`);
  console.log(`  ${(r.total / 1024).toFixed(1).padStart(7)} KB  total (budget ${BUDGET_BYTES / 1024} KB)`);
  console.log(`  per locale: ${Object.entries(r.byLocale).map(([l, t]) => `${l} ${(t / 1024).toFixed(1)}`).join(', ')} KB\n`);
  if (r.total > BUDGET_BYTES) {
    console.error('Over the sign-in page budget.');
    process.exit(1);
  }
}
