import type { Locale } from '@crdp/core';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';

/**
 * What a route needs, declared on every route in `config.access`. A hook enforces it before
 * the handler runs; a route under /api without a declaration stops the app from building.
 *
 * - `public`: anyone.
 * - `session`: a signed-in user (not a free-access link).
 * - `{ apiId }`: a signed-in user whose roles in the current app hold that function.
 * - `envelope`: the envelope calls of spec 000 section 7; each method declares its own access.
 * `{ apiId, localToken: true }` also admits the operator's command line on the same machine,
 * which proves itself with the token the server writes to `DATA_DIR/.server.json` (owner-only).
 * A route may also name `freeScope`: a free-access link of that scope may call it.
 */
export type Access = 'public' | 'session' | 'envelope' | { apiId: string; localToken?: boolean };
export type FreeScopeKind = 'crf' | 'term';

export interface AuthContext {
  sessionId: number;
  kind: 'login' | 'free';
  userId: number | null;
  userName: string;
  appId: number;
  /** ApiIds of the functions the user's roles hold in the current app. */
  apiIds: ReadonlySet<string>;
  /** RouterNames of the menus the user's roles hold in the current app. */
  routerNames: ReadonlySet<string>;
  /** The database's ACL version the permissions were read at (menus answer ETag). */
  aclVersion: number;
  /** For free-access sessions: what the link opens. */
  scope: { kind: FreeScopeKind; objectId: string | null; keyId?: number } | null;
}

/** What the harness knows of each route: read from the declarations as routes register. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  freeScope?: FreeScopeKind;
  ownedIds?: (db: Db, appId: number) => Promise<Array<Record<string, string | number>>>;
  /** Status codes whose answer the route describes (`schema.response`); the contract test wants a 2xx. */
  responds: string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * For routes with path parameters: the real ids of one app's objects that the route
     * addresses, so the authorization matrix can ask for them from another app.
     */
    ownedIds?: (db: Db, appId: number) => Promise<Array<Record<string, string | number>>>;
    freeScope?: FreeScopeKind;
    /** Errors of this route answer in the envelope shape `{ code: 1, error: { message } }`. */
    envelope?: boolean;
    /** Errors of this route answer a FHIR R4 `OperationOutcome` (application/fhir+json). */
    fhir?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    locale: Locale;
  }
  interface FastifyInstance {
    declaredRoutes: DeclaredRoute[];
    /** Random per start; written to DATA_DIR/.server.json for command-line tools of the operator. */
    localToken: string;
    db: Db;
    /**
     * Reads that tolerate lag — patient lists, search, chart aggregates, exports — on the read
     * replica (`DATABASE_READ_URL`); the primary when there is none. Never for writes (its
     * sessions are read-only), nor for a read that must see what this request or the person's
     * last one wrote (read-after-write stays on `db`). See db/README.md, "Read replica".
     */
    readDb: Db;
    database: Database;
    config: Config;
  }
}

/** Routes that belong to plugins (static files, API docs) and are public by nature. */
export function isImplicitlyPublic(url: string) {
  return !url.startsWith('/api') || url === '/api/docs' || url.startsWith('/api/docs/');
}
