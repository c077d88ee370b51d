/**
 * Lighthouse for `npm run bench:web`, installed on first use into .cache/lighthouse-<version>
 * (git-ignored) instead of being a devDependency: it and what it pulls in (Puppeteer, Sentry,
 * OpenTelemetry, …) were 171 of the workspace's 865 packages and over 100 MB, installed by every
 * `npm ci` — the first start's (issue 29: ≤ 100 s from a clean clone) — for one benchmark.
 * The types below are the few parts of its API the benchmark reads.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const LIGHTHOUSE_VERSION = '12.8.2';

export interface Flags {
  port: number;
  output: string[];
  logLevel: 'silent' | 'error' | 'info' | 'verbose';
  onlyCategories: string[];
}
interface Audit {
  id: string;
  title: string;
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  scoreDisplayMode?: string;
}
export interface Result {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, Audit>;
  environment: { benchmarkIndex: number };
}
export type Lighthouse = (url: string, flags: Flags) => Promise<{ lhr: Result; report: string | string[] } | undefined>;

/** Lighthouse's main function, installed into `cacheDir` first when it is not there yet. */
export async function loadLighthouse(cacheDir: string): Promise<Lighthouse> {
  const dir = path.join(cacheDir, `lighthouse-${LIGHTHOUSE_VERSION}`);
  const manifest = path.join(dir, 'node_modules/lighthouse/package.json');
  if (!fs.existsSync(manifest)) {
    console.log(`Installing lighthouse@${LIGHTHOUSE_VERSION} into ${path.relative(process.cwd(), dir)} (once)`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, dependencies: { lighthouse: LIGHTHOUSE_VERSION } }, null, 2)}\n`);
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0 || !fs.existsSync(manifest)) throw new Error(`could not install lighthouse@${LIGHTHOUSE_VERSION} into ${dir}`);
  }
  const main = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { main: string }).main;
  const module = (await import(pathToFileURL(path.join(path.dirname(manifest), main)).href)) as { default: Lighthouse };
  return module.default;
}
