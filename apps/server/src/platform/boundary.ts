/**
 * Bytes no field of ours may hold are refused at the boundary, before any schema or database sees
 * them: a NUL character (PostgreSQL's text cannot store one, so it would otherwise surface as a 500
 * there and as a stored oddity on SQLite). An id in the path with one cannot name anything (404); a
 * query or body field with one is `VALIDATION_FAILED` naming the field.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

const NUL = '\u0000';

/** The dotted path of the first string value or key holding a NUL, or null. Arrays count by index. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || '_' : null;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return path || '_';
    const found = findNul(child, at);
    if (found) return found;
  }
  return null;
}

/** preValidation: params → NOT_FOUND, query and body → VALIDATION_FAILED naming the field. */
export async function refuseNul(request: FastifyRequest) {
  if (findNul(request.params)) throw new AppError('NOT_FOUND');
  const inQuery = findNul(request.query);
  if (inQuery) throw new AppError('VALIDATION_FAILED', { [`querystring.${inQuery}`]: 'invalid' });
  const inBody = findNul(request.body);
  if (inBody) throw new AppError('VALIDATION_FAILED', { [inBody]: 'invalid' });
}

export function registerBoundary(app: FastifyInstance) {
  app.addHook('preValidation', refuseNul);
}
