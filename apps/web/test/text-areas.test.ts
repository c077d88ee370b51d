/**
 * The texts are split by area and loaded with the screens of that area (src/i18n/index.ts): a
 * screen may only use keys of the areas that are in when it shows, or it would show a key. This
 * reads the code: the route table (app/routes.tsx: each route's layouts, among them the layouts
 * that hold the page back until an area's texts are in) and every module a route's page or layouts
 * import, and checks the top-level keys each module names ('campaignAdmin.title', `languages.${l}`)
 * against the areas loaded by then:
 * - the entry (main.tsx and what it imports, the sign-in page among them): sign-in's texts alone;
 * - a layout: sign-in's and those of the text layouts before it in the route's list;
 * - a page and what it imports (and loads on demand): those of all the route's text layouts;
 * - any module also the areas it asks for itself (`useTexts('console')`, as the desk shell does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, readArea, type Area } from './texts';

const SRC = path.resolve(import.meta.dirname, '../src');
const areaOf = new Map<string, Area>(AREAS.flatMap((area) => Object.keys(readArea(area, 'en')).map((key) => [key, area] as const)));

const sources = new Map<string, string>();
const read = (file: string) => {
  let text = sources.get(file);
  if (text === undefined) {
    // Comments may name keys (“see 'console.nav'”): only code counts.
    text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    sources.set(file, text);
  }
  return text;
};

function resolve(from: string, spec: string): string | null {
  // `@/…` is src/… (the alias in tsconfig.json and vite.config.ts).
  if (!spec.startsWith('.') && !spec.startsWith('@/')) return null;
  const base = spec.startsWith('@/') ? path.join(SRC, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** The modules `file` imports: statically (not `import type`), and with `dynamic` also on demand (`import('…')`). */
function imports(file: string, dynamic: boolean): string[] {
  const text = read(file);
  const specs = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;'"]*?\sfrom\s+'([^']+)'/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1]!),
    ...(dynamic ? [...text.matchAll(/\bimport\('([^']+)'\)/g)].map((m) => m[1]!) : []),
  ];
  return specs.map((spec) => resolve(file, spec)).filter((f): f is string => f !== null);
}

function closure(roots: string[], dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of imports(file, dynamic)) visit(next);
  };
  roots.forEach(visit);
  return seen;
}

/** The top-level text keys a module names, by area. */
function keysUsed(file: string): Map<string, Area> {
  const used = new Map<string, Area>();
  for (const m of read(file).matchAll(/['"`]([a-z][A-Za-z]*)\.[A-Za-z$]/g)) {
    const area = areaOf.get(m[1]!);
    if (area) used.set(m[1]!, area);
  }
  return used;
}

/** The areas a module asks for itself (`useTexts('console')`). */
const ownAreas = (file: string): Area[] =>
  [...read(file).matchAll(/useTexts\(([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(/'(\w+)'/g)].map((a) => a[1] as Area)).filter((a) => AREAS.includes(a));

/** Modules that name keys of an area not loaded where they show: `module: key (area)`. */
function misplaced(files: Iterable<string>, allowed: readonly Area[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const ok = new Set<Area>(['common', ...allowed, ...ownAreas(file)]);
    for (const [key, area] of keysUsed(file)) if (!ok.has(area)) out.push(`${path.relative(SRC, file)}: ${key} (${area})`);
  }
  return out.sort();
}

// The route table, read from app/routes.tsx.
const routerFile = path.join(SRC, 'app/routes.tsx');
const router = read(routerFile);
const lazyModule = (spec: string) => resolve(routerFile, spec)!;
const parts = new Map<string, { module: string; areas: Area[] }>();
for (const m of router.matchAll(/const (\w+) = (?:page|layout)\(\(\) => import\('([^']+)'\)/g)) parts.set(m[1]!, { module: lazyModule(m[2]!), areas: [] });
for (const m of router.matchAll(/const (\w+) = texts\(\[([^\]]*)\], \(\) => import\('([^']+)'\)/g)) {
  parts.set(m[1]!, { module: lazyModule(m[3]!), areas: [...m[2]!.matchAll(/'(\w+)'/g)].map((a) => a[1] as Area) });
}
const lists = new Map<string, string[]>();
for (const m of router.matchAll(/const (\w+) = \[(\w+(?:, \w+)*)\];/g)) lists.set(m[1]!, m[2]!.split(', '));
const routes = [...router.matchAll(/\{ path: '([^']+)', page: (\w+)(?:, layouts: (\w+|\[[^\]]*\]))? \}/g)].map((m) => ({
  path: m[1]!,
  page: m[2]!,
  layouts: m[3] === undefined ? [] : m[3].startsWith('[') ? m[3].slice(1, -1).split(', ').flatMap((n) => (n.startsWith('...') ? lists.get(n.slice(3))! : [n])) : lists.get(m[3])!,
}));
// A page shown at any address no route has.
routes.push({ path: '(not found)', page: 'NotFoundPage', layouts: [] });
const entry = closure([path.join(SRC, 'main.tsx')], false);

describe('texts by area: each screen names only keys of the areas loaded when it shows', () => {
  it('reads the whole route table (every route, its page and layouts resolved to modules)', () => {
    expect(routes.length - 1).toBe([...router.matchAll(/\{ path: '/g)].length);
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      expect(parts.get(route.page)?.module ?? (route.page === 'LoginPage' ? 'entry' : undefined), `${route.path}: ${route.page}`).toBeDefined();
      for (const name of route.layouts) expect(parts.has(name), `${route.path}: ${name}`).toBe(true);
    }
    // The text layouts found are the ones the routes use.
    expect([...parts.values()].filter((p) => p.areas.length > 0).map((p) => p.areas.join()).sort()).toEqual(['app', 'console']);
  });

  it('the entry (and so the sign-in page in it) names sign-in’s texts only', () => {
    expect(entry.has(path.join(SRC, 'features/auth/pages/login-page.tsx'))).toBe(true);
    expect(entry.has(path.join(SRC, 'app/shells/phone/tab-layout.tsx')), 'the tab bar is loaded on demand').toBe(false);
    expect(entry.has(path.join(SRC, 'app/shells/staff-layout.tsx')), 'the staff layouts are loaded on demand').toBe(false);
    expect(misplaced(entry, [])).toEqual([]);
  });

  it.each(routes.map((r) => [r.path, r] as const))('%s', (_, route) => {
    const problems: string[] = [];
    const loaded: Area[] = [];
    for (const name of route.layouts) {
      const part = parts.get(name)!;
      problems.push(...misplaced([...closure([part.module], true)].filter((f) => !entry.has(f)), loaded).map((p) => `layout ${name}: ${p}`));
      loaded.push(...part.areas);
    }
    const page = parts.get(route.page)?.module;
    if (page) problems.push(...misplaced([...closure([page], true)].filter((f) => !entry.has(f)), loaded));
    expect(problems).toEqual([]);
  });

  it('finds a key of an area not loaded (the check itself)', () => {
    // The promoter's Me page names console entries for staff: allowed because it asks for them itself.
    const me = path.join(SRC, 'features/me/pages/me-page.tsx');
    expect(keysUsed(me).get('console')).toBe('console');
    expect(ownAreas(me)).toEqual(['console']);
    expect(misplaced([me], ['app'])).toEqual([]);
    // Without asking, the same keys would show untranslated on a promoter screen.
    sources.set(me, read(me).replace(/useTexts\(/g, 'noTexts('));
    expect(misplaced([me], ['app'])).toContain('features/me/pages/me-page.tsx: console (console)');
    sources.delete(me);
  });
});
