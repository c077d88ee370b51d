/**
 * Serves the built H5 app: hashed assets cached for a year (immutable), index.html never cached,
 * and a web manifest whose name is VITE_APP_NAME or the localized default. The build writes
 * Brotli and gzip copies of its text files (`.br`, `.gz`); they are sent to browsers that accept
 * them. index.html names the reader's locale files (from preload.json, written by the build) as
 * preload links — and Home's (with the promoter app's texts in that language), for a visitor
 * with a session cookie — so they download alongside the entry rather than after it has run.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_APP_NAME, WebManifestSchema, type Locale } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { SESSION_COOKIE } from '../../platform/session';

interface BuiltAppConfig {
  appName: string | null;
}

/**
 * preload.json, written by the build: each locale's files beyond the entry's (sign-in's texts), and
 * those of Home's first screen (its code, and per locale the promoter app's texts), relative to the
 * build folder.
 */
interface PreloadLists {
  locales: Partial<Record<Locale, string[]>>;
  home?: string[];
  homeTexts?: Partial<Record<Locale, string[]>>;
}

const preloadLink = (file: string) =>
  file.endsWith('.css') ? `<link rel="preload" as="style" crossorigin href="./${file}">` : `<link rel="modulepreload" crossorigin href="./${file}">`;

export async function webRoutes(app: FastifyInstance, ctx: AppContext) {
  const root = ctx.config.webDist;
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'the web app is not built; run "npm run build"');
    return;
  }
  let built: BuiltAppConfig = { appName: null };
  try {
    built = JSON.parse(fs.readFileSync(path.join(root, 'app-config.json'), 'utf8')) as BuiltAppConfig;
  } catch {
    // An older build without app-config.json: localized default names.
  }

  // Read again when the build changes (a rebuild while the server runs replaces the hashed files).
  let index: { mtimeMs: number; html: string; preload: PreloadLists } | null = null;
  const builtIndex = () => {
    const file = path.join(root, 'index.html');
    const { mtimeMs } = fs.statSync(file);
    if (index?.mtimeMs !== mtimeMs) {
      let preload: PreloadLists = { locales: {} };
      try {
        preload = JSON.parse(fs.readFileSync(path.join(root, 'preload.json'), 'utf8')) as PreloadLists;
      } catch {
        // An older build without preload.json: index.html as built.
      }
      index = { mtimeMs, html: fs.readFileSync(file, 'utf8'), preload };
    }
    return index;
  };
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const { html, preload } = builtIndex();
    // The app picks the locale the same way (unless one was chosen on this device).
    const locale = requestLocale(request);
    const files = [...(preload.locales[locale] ?? [])];
    // A visitor with a session cookie comes back signed in, and a promoter's app opens on Home: its
    // code and texts download with the entry. (Not checked against the sessions: a stale cookie
    // costs a few kilobytes, not a database read on every page load.)
    if (request.cookies[SESSION_COOKIE]) files.push(...(preload.home ?? []), ...(preload.homeTexts?.[locale] ?? []));
    reply.header('Cache-Control', 'no-store').header('Vary', 'Accept-Language, Cookie').type('text/html; charset=utf-8');
    return html.replace(/(\s*)<\/head>/, (_, space: string) => `${files.map((f) => `${space}  ${preloadLink(f)}`).join('')}${space}</head>`);
  };
  app.get('/', { schema: { hide: true } }, sendIndex);
  app.get('/index.html', { schema: { hide: true } }, sendIndex);

  app.withTypeProvider<ZodTypeProvider>().get('/manifest.webmanifest', { schema: { hide: true, response: { 200: WebManifestSchema } } }, async (request, reply) => {
    const locale = requestLocale(request);
    const name = built.appName || DEFAULT_APP_NAME[locale];
    reply.header('Cache-Control', 'no-cache').type('application/manifest+json; charset=utf-8');
    return {
      name,
      short_name: name,
      lang: locale,
      start_url: './',
      scope: './',
      display: 'standalone' as const,
      background_color: '#ffffff',
      theme_color: '#ffffff',
      icons: [
        { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ],
    };
  });

  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    cacheControl: false,
    index: ['index.html'],
    preCompressed: true,
    setHeaders(res, filePath) {
      // filePath is the file actually sent: `index.html.br` stands for index.html.
      const rel = path.relative(root, filePath).replace(/\.(br|gz)$/, '');
      res.setHeader('Vary', 'Accept-Encoding');
      if (rel.startsWith(`assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else if (rel === 'index.html') res.setHeader('Cache-Control', 'no-store');
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
}
