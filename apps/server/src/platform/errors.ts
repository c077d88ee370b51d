/** One error type, one handler, one shape: `{ error: { code, message, fields? } }`. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, negotiateLocale, parseAcceptLanguage, type ErrorCode, type Locale } from '@pa/shared';
import { ERROR_MESSAGES } from './i18n/messages';
import { renderErrorPage } from './html-pages';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly fields?: Record<string, string>,
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

export function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, fields?: Record<string, string>) {
  const body: { error: { code: ErrorCode; message: string; fields?: Record<string, string> } } = {
    error: { code, message: ERROR_MESSAGES[requestLocale(request)][code] },
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
}

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
export function issuesToFields(issues: ZodLikeIssue[], prefix?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const base = [...(prefix ? [prefix] : []), ...(issue.path ?? [])].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys ?? []) fields[base ? `${base}.${key}` : key] = 'unknown_field';
      continue;
    }
    let code = 'invalid';
    if (issue.params?.fieldCode) code = issue.params.fieldCode;
    else if (issue.code === 'invalid_type' && isMissing(issue)) code = 'required';
    else if (issue.code === 'too_small') code = 'too_short';
    else if (issue.code === 'too_big') code = 'too_long';
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
    if (isResponseSerializationError(error)) request.log.error({ err: error, route: request.routeOptions.url }, 'response did not match its schema');
    else request.log.error({ err: error }, 'unhandled error');
    if (!request.url.includes('/api/')) {
      return reply.status(500).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'error'));
    }
    return sendError(request, reply, 'INTERNAL');
  });
}

/** Unknown addresses: the catalogue's NOT_FOUND for the API and other methods, a page otherwise. */
export function registerNotFound(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') return sendError(request, reply, 'NOT_FOUND');
    return reply.status(404).type('text/html; charset=utf-8').send(renderErrorPage(requestLocale(request), 'not_found'));
  });
}
