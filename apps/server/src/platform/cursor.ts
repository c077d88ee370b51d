import { AppError } from './errors';

/** Opaque cursor over (time, id) for newest-first lists. */
export function encodeCursor(at: number, id: string): string {
  return Buffer.from(`${at}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: number; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  if (!at || !id || !/^\d+$/.test(at)) throw new AppError('VALIDATION_FAILED', { 'querystring.cursor': 'invalid' });
  return { at: Number(at), id };
}
