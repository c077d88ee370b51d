import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

/**
 * VITE_APP_NAME sets the title, manifest and in-app name at build time; unset, the app shows the
 * localized default. The build records it (and the version) in app-config.json for the server.
 */
function appName(name: string | null, version: string): Plugin {
  return {
    name: 'pa-app-name',
    transformIndexHtml: (html) => html.replaceAll('%APP_NAME%', name ?? 'Promotion Assistant'),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'app-config.json', source: JSON.stringify({ appName: name, version }) });
    },
  };
}

/** The antd-mobile locale pack loaded with each app locale's promoter-app texts (as in src/i18n/index.ts). */
const ANTD_PACKS: Record<string, string> = { 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW', en: 'en-US', fr: 'fr-FR', es: 'es-ES' };

/**
 * Writes preload.json: the files (beyond the entry's) each locale needs (sign-in's texts and
 * antd-mobile's pack), and those of Home's first screen (its code, layouts and first requests; and,
 * per locale, the promoter app's texts). The server names the reader's (and Home's, to a visitor
 * with a session cookie) in index.html as preload links, so they download alongside the entry
 * instead of after it has run and asked for them.
 */
function preloadLists(): Plugin {
  return {
    name: 'pa-preload-lists',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const closure = (fileName: string, acc = new Set<string>()): Set<string> => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || acc.has(fileName)) return acc;
        acc.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) acc.add(css);
        for (const dep of chunk.imports) closure(dep, acc);
        return acc;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const loaded = closure(entry.fileName);
      const files = (...modules: RegExp[]) => {
        const out = new Set<string>();
        for (const re of modules) {
          // The chunk it starts, else the one it was bundled into (zh-CN is antd-mobile's default, in the entry).
          const chunk = chunks.find((c) => c.facadeModuleId && re.test(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some((id) => re.test(id)));
          if (!chunk) this.error(`preload lists: no chunk has ${re}`);
          for (const f of closure(chunk.fileName)) if (!loaded.has(f)) out.add(f);
        }
        return [...out];
      };
      const texts = (area: string, locale: string) => new RegExp(`/src/i18n/locales/${locale}/${area}\\.json$`);
      // Sign-in's texts come with the shared catalogue's error and field texts (src/i18n/index.ts).
      const catalogue = (locale: string) => new RegExp(`/packages/shared/src/texts/common/${locale}\\.ts$`);
      const locales = Object.fromEntries(Object.keys(ANTD_PACKS).map((locale) => [locale, files(texts('common', locale), catalogue(locale))]));
      // Home's first screen: preloaded for a visitor who comes back signed in (the app opens on Home).
      const home = files(
        /\/src\/app\/home-with-announcements\.tsx$/,
        /\/src\/app\/home-prefetch\.ts$/,
        /\/src\/app\/guards\/require-auth\.tsx$/,
        /\/src\/app\/guards\/texts\.tsx$/,
        /\/src\/app\/shells\/staff-layout\.tsx$/,
        /\/src\/app\/shells\/phone\/tab-layout\.tsx$/,
        /\/src\/lib\/format\.ts$/,
      );
      // With the app's texts, antd-mobile's pack and the catalogue's inbox messages and conversion
      // terms, with the module that lists those (src/i18n/index.ts and catalogue.ts load them together).
      const part = (name: string, locale: string) => new RegExp(`/packages/shared/src/texts/${name}/${locale}\\.ts$`);
      const homeTexts = Object.fromEntries(
        Object.entries(ANTD_PACKS).map(([locale, pack]) => [
          locale,
          files(texts('app', locale), new RegExp(`/antd-mobile/es/locales/${pack}\\.js$`), /\/src\/i18n\/catalogue\.ts$/, part('notifications', locale), part('conversions', locale)),
        ]),
      );
      this.emitFile({ type: 'asset', fileName: 'preload.json', source: JSON.stringify({ locales, home, homeTexts }) });
    },
  };
}

/**
 * Writes `.br` and `.gz` next to every compressible file of the build (the server sends them with
 * Content-Encoding when the browser accepts it; the hashed assets never change, so this is done
 * once here rather than on every request).
 */
function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === '.vite' ? [] : walk(path.join(dir, e.name))) : [path.join(dir, e.name)]));
  return {
    name: 'pa-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(file)) continue;
        const source = fs.readFileSync(file);
        if (source.length < 1024) continue;
        const br = brotliCompressSync(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } });
        if (br.length < source.length) fs.writeFileSync(`${file}.br`, br);
        const gz = gzipSync(source, { level: 9 });
        if (gz.length < source.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const name = (process.env.VITE_APP_NAME ?? env.VITE_APP_NAME ?? '').trim() || null;
  const version = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')).version as string;
  return {
    base: './',
    plugins: [react(), appName(name, version), preloadLists(), precompress()],
    define: { __APP_VERSION__: JSON.stringify(version) },
    resolve: {
      // Modules of dependencies written for older Reacts, replaced by React 19's own ways, so their
      // fallback code does not sit in the entry unused: antd-mobile's renderer for Toast, Dialog and
      // the like (rc-util's, with ReactDOM.render and Babel's async runtime), and the
      // useSyncExternalStore shim react-i18next imports.
      alias: [
        // `@/lib/format` is apps/web/src/lib/format (tsconfig.json's paths; vitest.config.ts says the same).
        { find: /^@\//, replacement: `${path.resolve(__dirname, 'src')}/` },
        { find: /^rc-util\/lib\/React\/render$/, replacement: path.resolve(__dirname, 'src/lib/antd-render.ts') },
        { find: /^use-sync-external-store\/shim$/, replacement: path.resolve(__dirname, 'src/lib/sync-external-store.ts') },
      ],
    },
    build: {
      rollupOptions: {
        output: {
          // Texts by area and locale (src/i18n/locales/<locale>/<area>.json, and the shared catalogue's
          // packages/shared/src/texts/<part>/<locale>.ts) named so in reports: texts-app-fr-….js,
          // texts-catalogue-common-fr-….js.
          chunkFileNames: (chunk) => {
            const texts = chunk.facadeModuleId?.match(/\/src\/i18n\/locales\/([\w-]+)\/(\w+)\.json$/);
            const catalogue = chunk.facadeModuleId?.match(/\/packages\/shared\/src\/texts\/(\w+)\/([\w-]+)\.ts$/);
            return texts ? `assets/texts-${texts[2]}-${texts[1]}-[hash:7].js` : catalogue ? `assets/texts-catalogue-${catalogue[1]}-${catalogue[2]}-[hash:7].js` : 'assets/[name]-[hash:7].js';
          },
        },
      },
      manifest: true,
      target: 'es2020',
      chunkSizeWarningLimit: 400,
    },
    server: { proxy: { '/api': 'http://localhost:3000' } },
  };
});
