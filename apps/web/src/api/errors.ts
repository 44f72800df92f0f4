import { formatMessage, HTTP_TIMEOUT_MS, isMessageKey, type Locale, PATIENT360_TIMEOUT_MS } from '@crdp/core';

/** Patient 360 calls (`/api/v0.1/360...`) get the shorter time-out of spec 000 section 9. */
export function timeoutFor(url: string | undefined): number {
  const path = (url ?? '').split('?')[0] ?? '';
  return /^\/?(api\/v0\.1\/)?360(\/|$)/.test(path) ? PATIENT360_TIMEOUT_MS : HTTP_TIMEOUT_MS;
}

/** What the client does about one failed or odd response (spec 000 section 8). */
export type ErrorAction =
  | { kind: 'cancelled' }
  | { kind: 'forbidden'; message: string }
  | { kind: 'noProduct'; message: string }
  | { kind: 'unauthorized'; hadToken: boolean }
  | { kind: 'toLogin' }
  | { kind: 'show'; message: string }
  | { kind: 'silent'; message: string };

export interface FailedResponse {
  status?: number;
  body?: unknown;
  cancelled?: boolean;
  timedOut?: boolean;
  network?: boolean;
}

export interface ErrorContext {
  hasToken: boolean;
  /** The request is itself a sign-in: its 401 is a wrong password, not a lost session. */
  isLogin: boolean;
  /** The caller shows errors itself. */
  silent: boolean;
}

/** The message a server error body carries: `error.message` (envelope) or `message` (REST). */
export function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { message?: unknown; error?: { message?: unknown } };
  if (typeof b.error?.message === 'string' && b.error.message) return b.error.message;
  if (typeof b.message === 'string' && b.message) return b.message;
  return undefined;
}

export function errorCodeOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { errorCode?: unknown; error?: { errorCode?: unknown } };
  const code = b.errorCode ?? b.error?.errorCode;
  return typeof code === 'string' ? code : undefined;
}

/** The plain values a server error carries with its code (`error.values` or `values`). */
export function errorValuesOf(body: unknown): Record<string, string | number> {
  if (!body || typeof body !== 'object') return {};
  const b = body as { values?: unknown; error?: { values?: unknown } };
  const v = b.values ?? b.error?.values;
  return v && typeof v === 'object' ? (v as Record<string, string | number>) : {};
}

/**
 * A server refusal in the reader's language: a code of the shared catalogue is worded again in
 * `locale` (the server wrote the text in the language of the request, which the reader may have
 * changed since); anything else keeps the server's text.
 */
export function refusalText(body: unknown, serverText: string, locale: Locale): string {
  const code = errorCodeOf(body);
  return code && isMessageKey(code) ? formatMessage(code, locale, errorValuesOf(body)) : serverText;
}

const LOGIN_FIRST = /log\s*in first|请先登录/i;

/** Decides, for each kind of failure, message, notice or redirect. Pure, so it is tested alone. */
export function classifyFailure(r: FailedResponse, ctx: ErrorContext, fallback: string): ErrorAction {
  if (r.cancelled) return { kind: 'cancelled' };
  const message = serverMessage(r.body) ?? fallback;
  const code = errorCodeOf(r.body);
  if (code === 'auth.noProduct') return { kind: 'noProduct', message };
  if (r.status === 401 && !ctx.isLogin) return { kind: 'unauthorized', hadToken: ctx.hasToken };
  if (r.status === 403 && !ctx.isLogin) return { kind: 'forbidden', message };
  if (r.status === 500 && LOGIN_FIRST.test(message) && !ctx.hasToken) return { kind: 'toLogin' };
  return ctx.silent ? { kind: 'silent', message } : { kind: 'show', message };
}

/** A 2xx body whose `code` is 401 means the session is gone (spec 000 section 7). */
export function isBodyUnauthorized(body: unknown): boolean {
  return !!body && typeof body === 'object' && (body as { code?: unknown }).code === 401;
}

/**
 * A download (responseType blob) that fails gets its JSON error as a Blob: read it, so the
 * person sees the server's reason ("the form has no published version") and not "try again".
 */
export async function readableBody(data: unknown): Promise<unknown> {
  if (typeof Blob === 'undefined' || !(data instanceof Blob) || !/json/i.test(data.type)) return data;
  try {
    return JSON.parse(await data.text()) as unknown;
  } catch {
    return data;
  }
}
