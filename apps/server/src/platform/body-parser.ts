/**
 * JSON bodies are read raw so the RFC 9530 Content-Digest can be checked before parsing.
 * Browser API calls must carry it; server-to-server calls (api/v1) are checked when they do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { contentDigestMatches } from './crypto/digest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './boundary';

export const JSON_BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received (JSON calls), for signatures computed over the raw bytes. */
    rawBody?: Buffer;
  }
}

function verifyBodyDigest(request: FastifyRequest, body: Buffer) {
  const header = request.headers['content-digest'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const optional = request.url.startsWith('/api/v1/');
  if (optional && value === undefined) return;
  if (!contentDigestMatches(value, body)) throw new AppError('DIGEST_MISMATCH');
}

export const IMAGE_BODY_LIMIT = 2 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

export function registerBodyParsers(app: FastifyInstance) {
  // Image uploads arrive as the raw bytes; what they really are is decided from the bytes later.
  app.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: IMAGE_BODY_LIMIT }, (request, body, done) => {
    try {
      verifyBodyDigest(request, body as Buffer);
      done(null, body);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: JSON_BODY_LIMIT }, (request, body, done) => {
    const buffer = body as Buffer;
    request.rawBody = buffer;
    try {
      verifyBodyDigest(request, buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    if (buffer.length === 0) {
      done(new AppError('VALIDATION_FAILED', { _: 'required' }), undefined);
      return;
    }
    // Refused before parsing: nothing downstream (the boundary's walk, a schema) meets deeper nesting.
    if (nestsDeeperThan(buffer, MAX_JSON_DEPTH)) {
      done(new AppError('VALIDATION_FAILED', { _: 'invalid_json' }), undefined);
      return;
    }
    try {
      done(null, JSON.parse(buffer.toString('utf8')));
    } catch {
      done(new AppError('VALIDATION_FAILED', { _: 'invalid_json' }), undefined);
    }
  });
}
