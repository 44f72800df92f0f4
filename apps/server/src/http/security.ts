import { timingSafeEqual } from 'node:crypto';
import { pickLocale } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { audit } from '../audit/audit.js';
import { resolveSession } from '../auth/sessions.js';
import { type DeclaredRoute, isImplicitlyPublic } from './access.js';
import { buildContext, type RequestContext } from './context.js';
import { AppError, forbiddenFunction } from './errors.js';

export const SESSION_HEADER_LC = 'weappauthorization';
export const LOCAL_TOKEN_HEADER = 'x-crdp-local-token';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The operator's command line on this machine: loopback address and the token of DATA_DIR/.server.json. */
function isLocalOperator(req: FastifyRequest) {
  const given = req.headers[LOCAL_TOKEN_HEADER];
  if (typeof given !== 'string' || !LOOPBACK.has(req.socket.remoteAddress ?? '')) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(req.server.localToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sessionKeyOf(req: FastifyRequest): string | null {
  const raw = req.headers[SESSION_HEADER_LC];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  return value.startsWith('Bearer ') ? value.slice(7) : value;
}

/**
 * Resolves the session of every request and enforces the route's declared access before the
 * body is even parsed: 401 without a valid session, 403 without the function. Deny is the default.
 */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('locale', 'zh-CN');
  // Set on every request by the hook below before anything else reads it.
  app.decorateRequest('ctx', null as unknown as RequestContext);

  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (isImplicitlyPublic(url) && !route.config?.access) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${url} declares no access (config.access)`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      declared.push({
        method,
        url,
        access,
        ...(route.config?.freeScope ? { freeScope: route.config.freeScope } : {}),
        ...(route.config?.ownedIds ? { ownedIds: route.config.ownedIds } : {}),
        responds: Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {}),
      });
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', String(req.id));
    req.locale = pickLocale(req.headers['accept-language']);
    const access = req.routeOptions.config?.access ?? (isImplicitlyPublic(req.url) ? 'public' : undefined);
    const key = sessionKeyOf(req);
    let expired = false;
    if (key) {
      const found = await resolveSession(app.db, key, app.config.sessionTtlMs);
      if (found.status === 'ok') req.auth = found.auth;
      else expired = found.status === 'expired';
    }
    req.ctx = buildContext(req);
    if (access === 'public' || access === 'envelope') return;
    if (access === undefined)
      throw new AppError(404, 'request.notFound', { path: req.url.split('?')[0] ?? '' });
    assertAccess(req, access, expired);
  });

  // Every refusal with 403 (here, in an envelope method or in a handler) leaves an audit row.
  app.addHook('onError', async (req, _reply, error) => {
    if (error instanceof AppError && error.status === 403) await auditRefusal(req, error);
  });
});

/**
 * One `access.denied` row per 403: user, app, the route's pattern (never the address, which may
 * carry a key) and the function that was missing. A row that cannot be written never changes
 * the answer; the log says so without values.
 */
export async function auditRefusal(req: FastifyRequest, error: AppError) {
  const apiId = typeof error.values.apiId === 'string' ? error.values.apiId : null;
  const body = req.body as { method?: unknown } | undefined;
  const envelopeMethod =
    req.routeOptions.config?.envelope && typeof body?.method === 'string' ? body.method.slice(0, 100) : null;
  try {
    await audit(req.server.db, req, {
      action: 'access.denied',
      entity: 'route',
      entityId: `${req.method} ${req.routeOptions.url ?? '(no route)'}`,
      outcome: 'denied',
      after: {
        apiId,
        reason: error.key,
        ...(envelopeMethod ? { envelopeMethod } : {}),
        ...(req.auth?.kind === 'free'
          ? { freeScope: req.auth.scope?.kind ?? null, freeKeyId: req.auth.scope?.keyId ?? null }
          : {}),
      },
    });
  } catch (err) {
    req.log.error({ errorClass: (err as Error)?.name ?? 'Error' }, 'refusal audit row not written');
  }
}

/** Checks a declared access against the request's session; throws 401 or 403. */
export function assertAccess(
  req: FastifyRequest,
  access: 'public' | 'session' | { apiId: string; localToken?: boolean },
  expired = false,
) {
  if (access === 'public') return;
  if (typeof access === 'object' && access.localToken && isLocalOperator(req)) return;
  const auth = req.auth;
  if (!auth) throw new AppError(401, expired ? 'auth.expired' : 'auth.required');
  if (auth.kind === 'free') {
    const scope = req.routeOptions.config?.freeScope;
    if (!scope || auth.scope?.kind !== scope) throw new AppError(403, 'auth.scope');
    return;
  }
  if (access === 'session') return;
  if (!auth.apiIds.has(access.apiId)) throw forbiddenFunction(access.apiId);
}
