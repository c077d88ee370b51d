/**
 * Characters no field of ours may hold are refused at the boundary, before any schema or database
 * sees them:
 * - a NUL character: PostgreSQL's text cannot store one (a 500 there, a stored oddity on SQLite);
 * - a UTF-16 surrogate without its pair (JSON's `"\ud800"` escape parses into one): it has no UTF-8
 *   form, so PostgreSQL refuses it (a 500 on every retry) and SQLite stores bytes that come back as
 *   something else.
 * An id in the path with one cannot name anything (404); a query or body field or key with one is
 * `VALIDATION_FAILED` naming the field. A path with a `..` segment names nothing either (404). The walk is iterative, and JSON bodies nest at most
 * `MAX_JSON_DEPTH` levels (body-parser.ts checks the bytes before parsing), so no input can exhaust
 * the stack of the walk, of JSON.parse or of a schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, sendNotFound } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler refuses unstorable body strings itself, after checking a signature (the Stripe
     * receiver: such an event is kept as rejected and acknowledged, or Stripe would retry it for days).
     */
    checksBodyItself?: boolean;
  }
}

/** How deep objects and arrays may nest in a JSON body; ours nest a few levels, Stripe's events a dozen or so. */
export const MAX_JSON_DEPTH = 64;

const NUL = '\u0000';
/** A surrogate that is not half of a pair (with the u flag a pair is one code point, outside Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Whether `s` holds a character no field may hold. */
const isUnstorable = (s: string) => s.includes(NUL) || LONE_SURROGATE.test(s);

/**
 * The dotted path of a string value or key holding a NUL or a lone surrogate, or null
 * (`_` for the value itself; a bad key is named by the object holding it). Arrays count by index.
 */
export function findUnstorable(value: unknown): string | null {
  if (typeof value === 'string') return isUnstorable(value) ? '_' : null;
  // Strings are checked where they are met; objects and arrays wait on a stack with their path
  // (no recursion, and no path is built for a string unless it is refused).
  const stack: [object, string][] = [];
  const visit = (node: unknown, path: string) => {
    if (typeof node === 'object' && node !== null && !Buffer.isBuffer(node)) stack.push([node, path]);
  };
  visit(value, '');
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    const keys = Object.keys(node);
    for (const key of keys) {
      if (isUnstorable(key)) return path || '_';
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (isUnstorable(child)) return path ? `${path}.${key}` : key;
      } else visit(child, path ? `${path}.${key}` : key);
    }
  }
  return null;
}

/**
 * Whether a JSON text nests objects and arrays deeper than `max`, read from its bytes before parsing
 * (brackets inside strings do not count; a multi-byte UTF-8 character never holds an ASCII byte).
 */
export function nestsDeeperThan(json: Buffer, max: number): boolean {
  // Most bodies open fewer brackets than that in all: counted natively, no byte loop needed.
  let opened = 0;
  for (const bracket of [0x7b, 0x5b]) {
    for (let at = json.indexOf(bracket); at !== -1 && opened <= max; at = json.indexOf(bracket, at + 1)) opened++;
  }
  if (opened <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const byte = json[i]!;
    if (inString) {
      if (byte === 0x5c) i++; // a backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > max) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/** A `..` segment, with either slash (what a static file server refuses as leaving its root). */
const UP_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

/**
 * Whether the path of `url` (not its query) has a `..` segment once decoded: `/../x`, `/%2e%2e/x`,
 * `/assets/..%2f..`, `..%5c`. No route of ours has one; a path that cannot be decoded is left to
 * Fastify, which answers it (`frameworkErrors`).
 */
function hasUpSegment(url: string): boolean {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!/\.\.|%2e/i.test(path)) return false;
  try {
    return UP_SEGMENT.test(decodeURIComponent(path));
  } catch {
    return false;
  }
}

/** onRequest: a path with a `..` segment names nothing (rather than the static servers' 403, a 500 here). */
async function refuseUpSegments(request: FastifyRequest, reply: FastifyReply) {
  if (hasUpSegment(request.url)) return sendNotFound(request, reply);
}

/** preValidation: params → NOT_FOUND, query and body → VALIDATION_FAILED naming the field. */
async function refuseUnstorable(request: FastifyRequest) {
  if (findUnstorable(request.params)) throw new AppError('NOT_FOUND');
  const inQuery = findUnstorable(request.query);
  if (inQuery) throw new AppError('VALIDATION_FAILED', { [`querystring.${inQuery}`]: 'invalid' });
  if (request.routeOptions.config.checksBodyItself) return;
  const inBody = findUnstorable(request.body);
  if (inBody) throw new AppError('VALIDATION_FAILED', { [inBody]: 'invalid' });
}

export function registerBoundary(app: FastifyInstance) {
  app.addHook('onRequest', refuseUpSegments);
  app.addHook('preValidation', refuseUnstorable);
}
