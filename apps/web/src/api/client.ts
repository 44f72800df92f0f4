import { API_BASE, SESSION_HEADER } from '@crdp/core';
import axios, { type AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { CancelRegistry, cancelKey, PAGE_CHANGE_REASON } from './cancel';
import { classifyFailure, type ErrorAction, isBodyUnauthorized, readableBody, timeoutFor } from './errors';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** A sign-in call: its 401 means wrong credentials, not a lost session. */
    isLogin?: boolean;
    /** The caller shows errors itself; the interceptor only handles session and permission. */
    silent?: boolean;
    /** Survives page changes (site config, menus, notices). */
    keepOnPageChange?: boolean;
  }
}

/** Hooks the shell plugs in: the client knows no React, router or antd. */
export interface ClientHooks {
  getToken(): string | null;
  getLanguage(): string;
  /** Turns an error action into a message, notice or redirect. */
  onError(action: ErrorAction): void;
  t(key: string): string;
}

let hooks: ClientHooks = {
  getToken: () => null,
  getLanguage: () => 'zh-CN',
  onError: () => {},
  t: (k) => k,
};

export function configureClient(h: Partial<ClientHooks>) {
  hooks = { ...hooks, ...h };
}

export const cancelRegistry = new CancelRegistry();

/** Cancels every pending request of the page being left. */
export const cancelPageRequests = () => cancelRegistry.cancelAll(PAGE_CHANGE_REASON);

/** A failure the interceptor already reported or classified; `message` is for the caller. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly body: unknown,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/**
 * The one HTTP client of the web app (spec 000 section 7): base is the site root, cookies are
 * sent, the session key travels in `WeAppAuthorization`, responses return only the body.
 */
export const http = axios.create({ baseURL: '/', withCredentials: true });

type Tracked = InternalAxiosRequestConfig & { untrack?: () => void };

http.interceptors.request.use((config: Tracked) => {
  const token = hooks.getToken();
  if (token) config.headers.set(SESSION_HEADER, token);
  config.headers.set('Accept-Language', hooks.getLanguage());
  config.timeout = config.timeout || timeoutFor(config.url);
  if (!config.keepOnPageChange) {
    const controller = new AbortController();
    const outer = config.signal as AbortSignal | undefined;
    if (outer) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener('abort', () => controller.abort(outer.reason), { once: true });
    }
    config.signal = controller.signal;
    config.untrack = cancelRegistry.register(cancelKey(config.method, config.url), controller);
  }
  return config;
});

http.interceptors.response.use(
  (response) => {
    (response.config as Tracked).untrack?.();
    if (isBodyUnauthorized(response.data) && !response.config.isLogin) {
      hooks.onError({ kind: 'toLogin' });
      return { ...response, data: undefined };
    }
    return response;
  },
  async (error: AxiosError) => {
    const config = (error.config ?? {}) as Tracked;
    config.untrack?.();
    const cancelled = axios.isCancel(error) || error.code === 'ERR_CANCELED';
    const status = error.response?.status;
    const body = await readableBody(error.response?.data);
    const fallback =
      error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT'
        ? hooks.t('error.timeout')
        : status
          ? hooks.t('error.retry')
          : hooks.t('error.network');
    const action = classifyFailure(
      { status, body, cancelled },
      { hasToken: !!hooks.getToken(), isLogin: !!config.isLogin, silent: !!config.silent },
      fallback,
    );
    hooks.onError(action);
    const message =
      action.kind === 'cancelled' ? PAGE_CHANGE_REASON : 'message' in action ? action.message : fallback;
    return Promise.reject(new RequestError(message, status, body, cancelled));
  },
);

/** Envelope call (spec 000 section 7): `POST path { method, params }`; one value is wrapped. */
export async function callEnvelope<T>(
  path: 'api/merchants/merchantslogin' | 'api/merchants/MerchantsLogin' | string,
  method: string,
  params: unknown = [],
  config: AxiosRequestConfig = {},
): Promise<T> {
  const body = { method, params: Array.isArray(params) ? params : [params] };
  const res = await http.post<{ code: number; result: T; error?: { message?: string } }>(path, body, config);
  const data = res.data;
  if (!data) throw new RequestError(hooks.t('error.retry'), 200, data);
  if (data.code !== 0) throw new RequestError(data.error?.message || hooks.t('error.retry'), 200, data);
  return data.result;
}

/** REST call under /api/v0.1: returns `data` when `code` is 200 (or 0 for login and user calls). */
export async function rest<T>(config: AxiosRequestConfig & { url: string }): Promise<T> {
  const res = await http.request<{ code: number; data: T; message?: string }>({
    ...config,
    url: `${API_BASE}/${config.url.replace(/^\//, '')}`,
  });
  const body = res.data;
  if (!body) throw new RequestError(hooks.t('error.retry'), 200, body);
  if (body.code !== 200 && body.code !== 0)
    throw new RequestError(body.message || hooks.t('error.retry'), 200, body);
  return body.data;
}
