import { randomBytes } from 'node:crypto';
import {
  createdId,
  type FreeAccessScope,
  freeAccessCreateBody,
  freeAccessCreated,
  freeAccessList,
  freeAccessPath,
  freeAccessSession,
  freeAccessSessionBody,
  restOk,
} from '@crdp/core';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { freeAccessKeys, sessions } from '../db/schema/index.js';
import { signedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';
import { createSession } from './sessions.js';
import { hashKey } from './tokens.js';

/** Who may issue and revoke free-access links: people who manage CRFs. */
export const FREE_ACCESS_API_ID = 'CrfManagementList.edit';
/** A free-access session lasts at most this long, and never beyond the link's own expiry. */
const FREE_SESSION_MS = 2 * 3_600_000;

/**
 * Free-access links (spec 000 section 2: the CRF-only set and the terminology view open
 * without normal login). A link is a random key that opens one scope in one app, expires,
 * and can be revoked; only its hash is stored.
 */
export async function freeAccessRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v0.1/free_access',
    {
      config: { access: { apiId: FREE_ACCESS_API_ID } },
      schema: {
        tags: ['auth'],
        summary: 'Issue a free-access link for one CRF object or the terminology view',
        body: freeAccessCreateBody,
        response: { 200: restOk(freeAccessCreated) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const b = req.body;
      if (b.scopeKind === 'crf' && !b.objectId)
        throw new AppError(
          400,
          'request.invalid',
          {
            detail: bilingual('body.objectId: 生成 CRF 链接时必填', 'body.objectId: required for a CRF link'),
          },
          'body.objectId',
        );
      const key = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + b.hours * 3_600_000);
      const [row] = await app.db.transaction(async (tx) => {
        const rows = await tx
          .insert(freeAccessKeys)
          .values({
            keyHash: hashKey(key),
            appId: s.appId,
            scopeKind: b.scopeKind,
            objectId: b.objectId ?? null,
            label: b.label,
            createdBy: s.userId,
            expiresAt,
          })
          .returning({ id: freeAccessKeys.id });
        await audit(tx, req.ctx, {
          action: 'freeAccess.create',
          entity: 'free_access_key',
          entityId: rows[0]!.id,
          after: { ...b, expiresAt },
        });
        return rows;
      });
      // The key rides in the fragment, which no browser sends: it never reaches a request line or a log.
      const path = freeAccessPath(b.scopeKind, b.objectId ?? null, key);
      return { code: 200 as const, data: { id: row!.id, key, path, expiresAt }, message: 'ok' };
    },
  );
  r.get(
    '/api/v0.1/free_access',
    {
      config: { access: { apiId: FREE_ACCESS_API_ID } },
      schema: {
        tags: ['auth'],
        summary: 'Free-access links of the current app (keys are never shown again)',
        response: { 200: restOk(freeAccessList) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const rows = await app.db
        .select({
          id: freeAccessKeys.id,
          scopeKind: freeAccessKeys.scopeKind,
          objectId: freeAccessKeys.objectId,
          label: freeAccessKeys.label,
          createdAt: freeAccessKeys.createdAt,
          expiresAt: freeAccessKeys.expiresAt,
          revokedAt: freeAccessKeys.revokedAt,
        })
        .from(freeAccessKeys)
        .where(eq(freeAccessKeys.appId, s.appId))
        .orderBy(desc(freeAccessKeys.id))
        .limit(500);
      return { code: 200 as const, data: { items: rows }, message: 'ok' };
    },
  );
  r.post(
    '/api/v0.1/free_access/:id/revoke',
    {
      config: {
        access: { apiId: FREE_ACCESS_API_ID },
        ownedIds: async (db, appId) =>
          (
            await db
              .select({ id: freeAccessKeys.id })
              .from(freeAccessKeys)
              .where(eq(freeAccessKeys.appId, appId))
          ).map((r) => ({ id: r.id })),
      },
      schema: {
        tags: ['auth'],
        summary: 'Revoke a free-access link',
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: restOk(createdId) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const rows = await app.db.transaction(async (tx) => {
        const updated = await tx
          .update(freeAccessKeys)
          .set({ revokedAt: new Date() })
          .where(
            and(
              eq(freeAccessKeys.id, req.params.id),
              eq(freeAccessKeys.appId, s.appId),
              isNull(freeAccessKeys.revokedAt),
            ),
          )
          .returning({ id: freeAccessKeys.id });
        if (updated.length) {
          // Sessions opened with the link end with it.
          await tx
            .delete(sessions)
            .where(
              and(eq(sessions.kind, 'free'), sql`(${sessions.scope}->>'keyId')::int = ${req.params.id}`),
            );
          await audit(tx, req.ctx, {
            action: 'freeAccess.revoke',
            entity: 'free_access_key',
            entityId: req.params.id,
          });
        }
        return updated;
      });
      if (!rows.length) throw notFound('free_access_key');
      return { code: 200 as const, data: { id: req.params.id }, message: 'ok' };
    },
  );
  r.post(
    '/api/v0.1/free_access/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a free-access key for a session limited to its scope',
        body: freeAccessSessionBody,
        response: { 200: restOk(freeAccessSession) },
      },
    },
    async (req) => {
      const now = new Date();
      const [k] = await app.db
        .select()
        .from(freeAccessKeys)
        .where(
          and(
            eq(freeAccessKeys.keyHash, hashKey(req.body.key)),
            isNull(freeAccessKeys.revokedAt),
            gt(freeAccessKeys.expiresAt, now),
          ),
        );
      if (!k) throw new AppError(401, 'auth.freeKeyInvalid');
      const ttl = Math.min(FREE_SESSION_MS, k.expiresAt.getTime() - now.getTime());
      const scope: FreeAccessScope = {
        kind: k.scopeKind as 'crf' | 'term',
        objectId: k.objectId,
        keyId: k.id,
      };
      const s = await createSession(app.db, {
        userId: null,
        appId: k.appId,
        kind: 'free',
        scope,
        ttlMs: ttl,
        ip: req.ctx.ip,
        userAgent: req.ctx.userAgent,
      });
      await audit(app.db, req.ctx, {
        action: 'freeAccess.use',
        entity: 'free_access_key',
        entityId: k.id,
        appId: k.appId,
        userId: null,
        userName: `free:${k.id}`,
      });
      return { code: 200 as const, data: { SessionKey: s.key, scope, AppId: k.appId }, message: 'ok' };
    },
  );
}
