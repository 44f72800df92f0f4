/**
 * READY: the request context (ARCHITECTURE.md, "A request becomes one actor context … before any
 * service runs; services take the context, never the Fastify request").
 *
 * The security hook builds `req.ctx` once per request, after it has resolved the session and
 * before the route's access is checked. Routes pass `req.ctx` (or the narrower actor from
 * `signedIn(req.ctx)` / `appMember(req.ctx)`) to services; services never import FastifyRequest.
 *
 * - `RequestContext`: every request — request id, client address, locale, the session (or none),
 *   the request's logger and the database.
 * - `SignedIn`: a signed-in person (not a free-access link) acting in one app.
 * - `audit(db, ctx, …)` (audit/audit.ts) takes the context; actions are the `AuditAction` union of
 *   @crdp/core.
 */
import type { Locale } from '@crdp/core';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import type { AuthContext } from './access.js';
import { AppError } from './errors.js';

export interface RequestContext {
  /** The id every log line and the `x-request-id` header of this request carry. */
  readonly requestId: string;
  /** The client's address (as Fastify's `trustProxy` setting reads it). */
  readonly ip: string;
  /** The browser's \`user-agent\` header (at most 300 characters), kept with the sessions it opens. */
  readonly userAgent: string;
  readonly locale: Locale;
  /** The session of the request: a signed-in user, a free-access link, or none. */
  readonly auth: AuthContext | null;
  readonly log: FastifyBaseLogger;
  readonly db: Db;
}

/** A signed-in person acting in one app, with what their roles allow there. */
export interface SignedIn extends RequestContext {
  readonly auth: AuthContext & { kind: 'login'; userId: number };
  readonly userId: number;
  readonly userName: string;
  readonly appId: number;
  /** ApiIds of the functions the user's roles hold in the current app. */
  readonly apiIds: ReadonlySet<string>;
}

/** Someone acting in an app: a signed-in person or a free-access link (its scope says what it opens). */
export interface AppActor extends RequestContext {
  readonly auth: AuthContext;
  readonly appId: number;
  /** Null for a free-access link. */
  readonly userId: number | null;
  readonly userName: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Built by the security hook before the route's access check; see http/context.ts. */
    ctx: RequestContext;
  }
}

/** Builds the context of a request; the security hook calls it once, after resolving the session. */
export function buildContext(req: FastifyRequest): RequestContext {
  return {
    requestId: String(req.id),
    ip: req.ip ?? '',
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
    locale: req.locale,
    auth: req.auth,
    log: req.log,
    db: req.server.db,
  };
}

/** The signed-in person of the request; 401 for no session or a free-access link. */
export function signedIn(ctx: RequestContext): SignedIn {
  const a = ctx.auth;
  if (a?.kind !== 'login' || a.userId === null) throw new AppError(401, 'auth.required');
  const auth = a as AuthContext & { kind: 'login'; userId: number };
  return {
    ...ctx,
    auth,
    userId: auth.userId,
    userName: auth.userName,
    appId: auth.appId,
    apiIds: auth.apiIds,
  };
}

/** Whoever acts in an app (a person or a free-access link); 401 without a session. */
export function appActor(ctx: RequestContext): AppActor {
  const a = ctx.auth;
  if (!a) throw new AppError(401, 'auth.required');
  return { ...ctx, auth: a, appId: a.appId, userId: a.userId, userName: a.userName };
}

/** The context of work no request started (jobs, schedules, start-up): no session, its own id. */
export function systemContext(db: Db, log: FastifyBaseLogger, requestId: string): RequestContext {
  return { requestId, ip: '', userAgent: '', locale: 'zh-CN', auth: null, log, db };
}
