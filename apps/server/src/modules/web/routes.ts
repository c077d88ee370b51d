/**
 * Serves the built H5 app: hashed assets cached for a year (immutable), index.html never cached,
 * and a web manifest whose name is VITE_APP_NAME or the localized default.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_APP_NAME, WebManifestSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';

interface BuiltAppConfig {
  appName: string | null;
}

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
    setHeaders(res, filePath) {
      const rel = path.relative(root, filePath);
      if (rel.startsWith(`assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else if (rel === 'index.html') res.setHeader('Cache-Control', 'no-store');
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
}
