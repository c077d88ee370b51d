/**
 * The one way the app calls the server: URLs relative to the page (works under any sub-path),
 * JSON bodies with a Content-Digest, the CSRF header, the reader's language, and errors turned
 * into ApiError with the catalogue code. A 401 sends the user to sign-in with a return path.
 */
import { isErrorCode, type ErrorCode } from '@pa/shared';
import { readCookie } from './cookies';
import { contentDigest, resetPublicKey } from './crypto';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly fields: Record<string, string> = {},
    serverMessage = '',
  ) {
    super(serverMessage || code);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A mutation's variables: the request body (a type from @pa/shared) and the id in the path. */
export type WithId<Body> = Body & { id: string };
/** A mutation's variables: the request body and the Idempotency-Key of this attempt (one per attempt; the same again when that attempt is retried after no answer). */
export type Idempotent<Body> = Body & { idempotencyKey: string };

interface Hooks {
  locale: () => string;
  onUnauthenticated: () => void;
}

let hooks: Hooks = { locale: () => 'en', onUnauthenticated: () => undefined };
export function configureApi(next: Partial<Hooks>) {
  hooks = { ...hooks, ...next };
}

async function ensureCsrfCookie() {
  if (!readCookie('pa_csrf')) await fetch('api/health', { cache: 'no-store' });
}

export async function api<T>(method: Method, path: string, body?: unknown, options: { signal?: AbortSignal; headers?: Record<string, string>; retried?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': hooks.locale(), ...options.headers };
  let payload: string | Blob | undefined;
  if (body instanceof Blob) {
    // Raw bytes (image uploads): the server decides the type from the bytes themselves.
    payload = body;
    headers['content-type'] = body.type || 'application/octet-stream';
    headers['content-digest'] = await contentDigest(await body.arrayBuffer());
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
    headers['content-digest'] = await contentDigest(payload);
  }
  if (method !== 'GET') {
    await ensureCsrfCookie();
    headers['x-csrf-token'] = readCookie('pa_csrf') ?? '';
  }
  let res: Response;
  try {
    res = await fetch(`api/${path}`, { method, headers, body: payload, signal: options.signal, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('INTERNAL', 0, {}, 'network');
  }
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (res.ok) return data as T;
  const err = (data as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined)?.error;
  const code: ErrorCode = isErrorCode(err?.code) ? err.code : res.status === 404 ? 'NOT_FOUND' : 'INTERNAL';
  // The CSRF token is bound to the session; a tab holding an older one gets the current one from
  // any GET and tries once more (the check runs before the body is read, so nothing was used up).
  if (code === 'CSRF_INVALID' && !options.retried) {
    await fetch('api/health', { cache: 'no-store', credentials: 'same-origin' });
    return api<T>(method, path, body, { ...options, retried: true });
  }
  if (code === 'UNAUTHENTICATED' && !path.startsWith('auth/')) hooks.onUnauthenticated();
  throw new ApiError(code, res.status, err?.fields ?? {}, err?.message);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Runs a call that carries sealed secrets; on ENCRYPTION_INVALID (the key was rotated) it
 * refetches the key and tries once more, sealing afresh.
 */
export async function withSealing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ENCRYPTION_INVALID') {
      resetPublicKey();
      return call();
    }
    throw error;
  }
}

/** A file from the API (e.g. a CSV export) in the reader's language, with the name the server gave it. */
export async function apiFile(path: string): Promise<{ blob: Blob; filename: string }> {
  let res: Response;
  try {
    res = await fetch(`api/${path}`, { headers: { 'accept-language': hooks.locale() }, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError('INTERNAL', 0, {}, 'network');
  }
  if (!res.ok) {
    const data = safeJson(await res.text()) as { error?: { code?: string } } | undefined;
    const code: ErrorCode = isErrorCode(data?.error?.code) ? data.error.code : 'INTERNAL';
    if (code === 'UNAUTHENTICATED') hooks.onUnauthenticated();
    throw new ApiError(code, res.status);
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
  return { blob: await res.blob(), filename };
}
