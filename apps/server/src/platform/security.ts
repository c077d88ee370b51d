/** Security headers: a strict Content-Security-Policy the app works under, and the usual others. */
import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { ERROR_PAGE_STYLE } from './html-pages';

const errorPageStyleHash = `'sha256-${createHash('sha256').update(ERROR_PAGE_STYLE).digest('base64')}'`;

/** For the small HTML pages sent from routes outside the site's context (the tracked redirect). */
export const ERROR_PAGE_CSP = `default-src 'none'; style-src ${errorPageStyleHash}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", errorPageStyleHash],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The app may be served over plain HTTP on a LAN or behind a TLS-terminating proxy.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  // (A callback hook: no promise per request.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    done(null, payload);
  });
}
