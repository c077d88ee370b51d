/** One error type, one handler, one shape: `{ error: { code, message, fields? } }`. */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, FIELD_CODES, negotiateLocale, parseAcceptLanguage, type ErrorCode, type FieldCode, type Locale } from '@pa/shared';
import { COMMON_TEXTS } from '@pa/shared/texts';
import { renderErrorPage } from './html-pages';
import { isDatabaseUnavailable } from '../db/unavailable';

/** Whether an error is the database's being out of reach (answered 503); for routes, which do not import db/. */
export { isDatabaseUnavailable };

/** `Retry-After` of a 503 for a database that cannot be reached (the pool connects afresh at once). */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** Field → code, only codes of the catalogue (so the compiler keeps docs/api.md's list exact). */
    readonly fields?: Record<string, FieldCode>,
    /** Extra headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

export function requestLocale(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  return negotiateLocale(parseAcceptLanguage(Array.isArray(header) ? header[0] : header));
}

function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, fields?: Record<string, string>) {
  const body: { error: { code: ErrorCode; message: string; fields?: Record<string, string> } } = {
    error: { code, message: COMMON_TEXTS[requestLocale(request)].errors[code] },
  };
  if (fields && Object.keys(fields).length > 0) body.error.fields = fields;
  return reply.status(ERROR_STATUS[code]).type('application/json; charset=utf-8').send(body);
}

interface ZodLikeIssue {
  code?: string;
  path?: (string | number)[];
  keys?: string[];
  message?: string;
  params?: { fieldCode?: string };
  minimum?: number;
  maximum?: number;
  input?: unknown;
  /** What kind of value a size issue is about (zod 4): number, bigint, string, array, … */
  origin?: string;
}

/** A number (or bigint, or date) below or above its bounds is too_small / too_large; a string or array too_short / too_long. */
const isMagnitude = (issue: ZodLikeIssue) => issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint' || issue.origin === 'date';

/**
 * Whether an invalid_type issue is about a value that is not there at all (→ `required`) rather
 * than one of the wrong type (→ `invalid`). zod 4 leaves the input out of its issues unless asked
 * to report it, but always ends the message with what it received.
 */
function isMissing(issue: ZodLikeIssue) {
  if ('input' in issue) return issue.input === undefined;
  return /received undefined$/.test(issue.message ?? '');
}

/** zod issues → `{ "field.path": "code" }`. */
const KNOWN_FIELD_CODES = new Set<string>(FIELD_CODES);

function issuesToFields(issues: ZodLikeIssue[], prefix?: string): Record<string, FieldCode> {
  const fields: Record<string, FieldCode> = {};
  for (const issue of issues) {
    const base = [...(prefix ? [prefix] : []), ...(issue.path ?? [])].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys ?? []) fields[base ? `${base}.${key}` : key] = 'unknown_field';
      continue;
    }
    let code: FieldCode = 'invalid';
    if (issue.params?.fieldCode && KNOWN_FIELD_CODES.has(issue.params.fieldCode)) code = issue.params.fieldCode as FieldCode;
    else if (issue.code === 'invalid_type' && isMissing(issue)) code = 'required';
    else if (issue.code === 'too_small') code = isMagnitude(issue) ? 'too_small' : 'too_short';
    else if (issue.code === 'too_big') code = isMagnitude(issue) ? 'too_large' : 'too_long';
    const key = base || '_';
    if (!fields[key]) fields[key] = code;
  }
  return fields;
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(request, reply, error.code, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = error.validationContext; // body | querystring | params | headers
      const issues = error.validation.map((v): ZodLikeIssue => {
        const params = v.params as Omit<ZodLikeIssue, 'code' | 'path'>;
        return { ...params, code: v.keyword, message: v.message, path: v.instancePath.split('/').filter(Boolean) };
      });
      return sendError(request, reply, 'VALIDATION_FAILED', issuesToFields(issues, context === 'body' ? undefined : context));
    }
    if (error.code && FASTIFY_CODES[error.code]) {
      return sendError(request, reply, FASTIFY_CODES[error.code]!, error.code.includes('JSON') ? { _: 'invalid' } : undefined);
    }
    if (error instanceof SyntaxError) return sendError(request, reply, 'VALIDATION_FAILED', { _: 'invalid' });
    if (isDatabaseUnavailable(error)) {
      // The database restarted, failed over or cut the connection: the pool connects afresh, so a
      // retry shortly after succeeds once the database answers again.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      if (!request.url.includes('/api/')) {
        return reply.status(ERROR_STATUS.SERVICE_UNAVAILABLE).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'error'));
      }
      return sendError(request, reply, 'SERVICE_UNAVAILABLE');
    }
    if (isResponseSerializationError(error)) request.log.error({ err: error, route: request.routeOptions.url }, 'response did not match its schema');
    else request.log.error({ err: error }, 'unhandled error');
    if (!request.url.includes('/api/')) {
      return reply.status(500).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'error'));
    }
    return sendError(request, reply, 'INTERNAL');
  });
}

/**
 * Errors Fastify raises before routing (`frameworkErrors`): a path it cannot decode, such as a bad
 * percent-escape, names nothing that exists, so it is NOT_FOUND, in our shape under api/ and as the
 * not-found page elsewhere.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code !== 'FST_ERR_BAD_URL') request.log.warn({ code: error.code }, 'framework error');
  if (request.url.startsWith('/api/') || request.method !== 'GET') return sendError(request, reply, error.code === 'FST_ERR_BAD_URL' ? 'NOT_FOUND' : 'VALIDATION_FAILED');
  return reply.status(404).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'not_found'));
}

/** Node's errors for requests it cannot parse or that arrive too slowly → catalogue codes. */
function clientErrorCode(nodeCode: string | undefined): ErrorCode {
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT'; // headers or whole request too slow
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return 'PAYLOAD_TOO_LARGE';
  return 'VALIDATION_FAILED';
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse (a bad request line,
 * `Content-Length: abc`, headers too large) or that came too slowly never reaches a route, so it is
 * answered here, straight on the socket, in the catalogue's shape — in English, as there are no
 * headers to read a language from — and the connection is closed. Only Node's error code is
 * logged: the error carries the raw bytes received (`rawPacket`), session cookie and CSRF token included.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = clientErrorCode(error.code);
  this.log.debug({ clientError: error.code, remoteAddress: socket.remoteAddress }, 'client error');
  // As Node does: answer only when no response has started on this connection.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: { code, message: COMMON_TEXTS.en.errors[code] } });
    const status = ERROR_STATUS[code];
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Nothing here: the catalogue's NOT_FOUND for the API and other methods, the not-found page otherwise. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  if (request.url.startsWith('/api/') || request.method !== 'GET') return sendError(request, reply, 'NOT_FOUND');
  return reply.status(404).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'not_found'));
}

/** Unknown addresses; `preHandler` runs first (counting them for /metrics). */
export function registerNotFound(app: FastifyInstance, preHandler?: preHandlerHookHandler) {
  if (preHandler) app.setNotFoundHandler({ preHandler }, sendNotFound);
  else app.setNotFoundHandler(sendNotFound);
}
