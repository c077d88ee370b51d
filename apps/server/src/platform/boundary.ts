/**
 * Characters no field of ours may hold are refused at the boundary, before any schema or database
 * sees them:
 * - a NUL character: PostgreSQL's text cannot store one (a 500 there, a stored oddity on SQLite);
 * - a UTF-16 surrogate without its pair (JSON's `"\ud800"` escape parses into one): it has no UTF-8
 *   form, so PostgreSQL refuses it (a 500 on every retry) and SQLite stores bytes that come back as
 *   something else.
 * An id in the path with one cannot name anything (404); a query or body field or key with one is
 * `VALIDATION_FAILED` naming the field. The walk is iterative, and JSON bodies nest at most
 * `MAX_JSON_DEPTH` levels (body-parser.ts checks the bytes before parsing), so no input can exhaust
 * the stack of the walk, of JSON.parse or of a schema.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

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
export const isUnstorable = (s: string) => s.includes(NUL) || LONE_SURROGATE.test(s);

/**
 * The dotted path of the first string value or key holding a NUL or a lone surrogate, or null
 * (`_` for the value itself; a bad key is named by the object holding it). Arrays count by index.
 */
export function findUnstorable(value: unknown): string | null {
  // Depth first, in document order: the stack holds what is left to visit, last first.
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (isUnstorable(node)) return path || '_';
      continue;
    }
    if (typeof node !== 'object' || node === null || Buffer.isBuffer(node)) continue;
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (isUnstorable(key)) return path || '_';
      stack.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}

/**
 * Whether a JSON text nests objects and arrays deeper than `max`, read from its bytes before parsing
 * (brackets inside strings do not count; a multi-byte UTF-8 character never holds an ASCII byte).
 */
export function nestsDeeperThan(json: Buffer, max: number): boolean {
  if (json.length <= max) return false;
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

/** preValidation: params → NOT_FOUND, query and body → VALIDATION_FAILED naming the field. */
export async function refuseUnstorable(request: FastifyRequest) {
  if (findUnstorable(request.params)) throw new AppError('NOT_FOUND');
  const inQuery = findUnstorable(request.query);
  if (inQuery) throw new AppError('VALIDATION_FAILED', { [`querystring.${inQuery}`]: 'invalid' });
  if (request.routeOptions.config.checksBodyItself) return;
  const inBody = findUnstorable(request.body);
  if (inBody) throw new AppError('VALIDATION_FAILED', { [inBody]: 'invalid' });
}

export function registerBoundary(app: FastifyInstance) {
  app.addHook('preValidation', refuseUnstorable);
}
