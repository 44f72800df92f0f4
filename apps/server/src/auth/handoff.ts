import {
  HANDOFF_RATE_PER_MINUTE,
  HANDOFF_TTL_MS,
  type HandoffIdentity,
  handoffCodeBody,
  handoffCreateBody,
  handoffCreated,
  handoffExchanged,
  handoffIdentity,
  handoffPath,
  PRODUCT_ID,
  restOk,
} from '@crdp/core';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { sessionHandoffs, users } from '../db/schema/index.js';
import { signedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { appsOfUser } from './service.js';
import { createSession } from './sessions.js';
import { hashKey, newSessionKey } from './tokens.js';

/** Peeks and exchanges per client address: codes are 256 random bits, this only keeps scanners slow. */
export const handoffRateLimit = { max: HANDOFF_RATE_PER_MINUTE, timeWindow: 60_000 };

/** An unknown, expired, used or refused code: one and the same answer, so none can be told apart. */
export const handoffInvalid = (field = 'body.code') => new AppError(401, 'auth.handoffInvalid', {}, field);

/**
 * Who a code would sign in, if the user may still use that app (enabled, a member, the app holds
 * the product); null otherwise.
 */
async function identityOf(db: Tx, userId: number, appId: number): Promise<HandoffIdentity | null> {
  const [user] = await db
    .select({ userName: users.userName, nickname: users.nickname, enabled: users.enabled })
    .from(users)
    .where(eq(users.userId, userId));
  if (!user?.enabled) return null;
  const app = (await appsOfUser(db, userId)).find(
    (a) => a.AppId === appId && a.AppProducts.some((p) => p.ProductId === PRODUCT_ID),
  );
  if (!app) return null;
  return {
    UserId: userId,
    UserName: user.userName,
    NickName: user.nickname || user.userName,
    AppId: appId,
    AppName: app.AppName ?? '',
    AppShortName: app.AppShortName,
  };
}

/** Whose live code this is, without using it; null for an unknown, expired or used code. */
export async function peekHandoff(db: Tx, code: string): Promise<HandoffIdentity | null> {
  const [row] = await db
    .select({ userId: sessionHandoffs.userId, appId: sessionHandoffs.appId })
    .from(sessionHandoffs)
    .where(
      and(
        eq(sessionHandoffs.codeHash, hashKey(code)),
        isNull(sessionHandoffs.usedAt),
        gt(sessionHandoffs.expiresAt, sql`now()`),
      ),
    );
  return row ? identityOf(db, row.userId, row.appId) : null;
}

/**
 * The sign-in hand-off of spec 000 §2 made safe: the address carries a one-minute, single-use
 * code that a signed-in session asked for itself, never a session key. The page exchanges it by
 * a POST for a new session of the same user and app; a raw session key is just an unknown code.
 */
export async function handoffRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v0.1/session/handoff',
    {
      config: { access: 'session', rateLimit: handoffRateLimit },
      schema: {
        tags: ['auth'],
        summary:
          'A one-minute, single-use sign-in code for this session’s user and app (`/?SessionKey=<code>`)',
        body: handoffCreateBody.optional(),
        response: { 200: restOk(handoffCreated) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const code = newSessionKey();
      const expiresAt = new Date(Date.now() + HANDOFF_TTL_MS);
      await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(sessionHandoffs)
          .values({ codeHash: hashKey(code), userId: s.userId, appId: s.appId, expiresAt })
          .returning({ id: sessionHandoffs.id });
        await audit(tx, req.ctx, {
          action: 'session.handoff.create',
          entity: 'session_handoff',
          entityId: row!.id,
          after: { expiresAt },
        });
      });
      // Used and expired codes are worth nothing; the audit trail keeps what happened.
      await app.db
        .delete(sessionHandoffs)
        .where(lt(sessionHandoffs.expiresAt, sql`now() - interval '1 day'`));
      return {
        code: 200 as const,
        data: { code, path: handoffPath(code), expiresAt: expiresAt.toISOString() },
        message: 'ok',
      };
    },
  );

  r.post(
    '/api/v0.1/session/handoff/peek',
    {
      config: { access: 'public', rateLimit: handoffRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Whose sign-in code this is (user and app names), without using it',
        body: handoffCodeBody,
        response: { 200: restOk(handoffIdentity) },
      },
    },
    async (req) => {
      const who = await peekHandoff(app.db, req.body.code);
      if (!who) throw handoffInvalid();
      return { code: 200 as const, data: who, message: 'ok' };
    },
  );

  r.post(
    '/api/v0.1/session/handoff/exchange',
    {
      config: { access: 'public', rateLimit: handoffRateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Use a sign-in code once: a new session of its user and app',
        body: handoffCodeBody,
        response: { 200: restOk(handoffExchanged) },
      },
    },
    async (req) => {
      const outcome = await app.db.transaction(async (tx) => {
        // One statement decides who wins: a second exchange finds used_at set and gets nothing.
        const [row] = await tx
          .update(sessionHandoffs)
          .set({ usedAt: sql`now()` })
          .where(
            and(
              eq(sessionHandoffs.codeHash, hashKey(req.body.code)),
              isNull(sessionHandoffs.usedAt),
              gt(sessionHandoffs.expiresAt, sql`now()`),
            ),
          )
          .returning({
            id: sessionHandoffs.id,
            userId: sessionHandoffs.userId,
            appId: sessionHandoffs.appId,
          });
        if (!row) return { id: null, who: null, key: null };
        const who = await identityOf(tx, row.userId, row.appId);
        if (!who) return { id: row.id, who: null, key: null };
        const s = await createSession(tx, {
          userId: who.UserId,
          appId: who.AppId,
          kind: 'login',
          ttlMs: app.config.sessionTtlMs,
          ip: req.ctx.ip,
          userAgent: req.ctx.userAgent,
        });
        await audit(tx, req.ctx, {
          action: 'session.handoff.use',
          entity: 'session_handoff',
          entityId: row.id,
          after: { sessionId: s.sessionId },
          appId: who.AppId,
          userId: who.UserId,
          userName: who.UserName,
        });
        return { id: row.id, who, key: s.key };
      });
      if (!outcome.who || !outcome.key) {
        await audit(app.db, req.ctx, {
          action: 'session.handoff.use',
          entity: 'session_handoff',
          entityId: outcome.id ?? '',
          outcome: 'failure',
          appId: null,
          userId: null,
          userName: '',
        });
        throw handoffInvalid();
      }
      return { code: 200 as const, data: { ...outcome.who, SessionKey: outcome.key }, message: 'ok' };
    },
  );
}
