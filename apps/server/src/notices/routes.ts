import { type NoticeKind, noticeList, noticesQuery, noticesRead, noticesReadBody, restOk } from '@crdp/core';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Tx } from '../db/client.js';
import { notices } from '../db/schema/index.js';
import { withAppScope } from '../db/scoped.js';
import { signedIn } from '../http/context.js';
import { wordNotices } from './wording.js';

export interface NewNotice {
  appId: number;
  userId: number;
  kind: NoticeKind;
  title: string;
  body?: string;
  link?: string;
}

/** Other areas call this when something happens that a person should hear about. */
export async function notify(db: Tx, n: NewNotice) {
  await db.insert(notices).values({ ...n, body: n.body ?? '', link: n.link ?? '' });
}

export async function noticeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0.1/notices',
    {
      config: { access: 'session' },
      schema: {
        tags: ['notices'],
        summary: 'Notices of the signed-in user in the current app, newest first, and the unread count',
        querystring: noticesQuery,
        response: { 200: restOk(noticeList) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const mine = and(eq(notices.userId, s.userId), eq(notices.appId, s.appId));
      // Read in the app's scope (db/scoped.ts): row-level security backs the app filter above.
      const [items, [count]] = await withAppScope(
        app.db,
        s.appId,
        async (tx) =>
          [
            await tx
              .select()
              .from(notices)
              .where(mine)
              .orderBy(desc(notices.createdAt), desc(notices.id))
              .limit(req.query.limit),
            await tx
              .select({ n: sql<number>`count(*)::int` })
              .from(notices)
              .where(and(mine, isNull(notices.readAt))),
          ] as const,
      );
      const worded = await withAppScope(app.db, s.appId, (tx) => wordNotices(tx, s.appId, items, s.locale));
      return { code: 200 as const, data: { items: worded, unread: count?.n ?? 0 }, message: 'ok' };
    },
  );
  r.post(
    '/api/v0.1/notices/read',
    {
      config: { access: 'session' },
      schema: {
        tags: ['notices'],
        summary: 'Mark notices read (the given ids, or all)',
        body: noticesReadBody,
        response: { 200: restOk(noticesRead) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const ids = req.body.ids;
      const where = and(
        eq(notices.userId, s.userId),
        eq(notices.appId, s.appId),
        isNull(notices.readAt),
        ids ? inArray(notices.id, ids.length ? ids : [0]) : undefined,
      );
      const rows = await app.db
        .update(notices)
        .set({ readAt: new Date() })
        .where(where)
        .returning({ id: notices.id });
      return { code: 200 as const, data: { updated: rows.length }, message: 'ok' };
    },
  );
}
