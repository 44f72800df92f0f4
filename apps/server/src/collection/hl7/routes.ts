import { collectionSourceConfig, hl7MessagePage, hl7MessageQuery, type Locale } from '@crdp/core';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { pageWindow } from '../../db/paging.js';
import { collectionSources, hl7Messages } from '../../db/schema/index.js';
import { signedIn } from '../../http/context.js';
import type { Bilingual } from '../../http/errors.js';
import { restRoutes } from '../../http/route.js';
import { enqueueJob } from '../../jobs/runner.js';
import { Hl7Listeners, type ListenerSource } from './listener.js';
import { HL7_JOB_KIND, hl7Job } from './process.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The HL7 v2 listeners of this process (collection/hl7). */
    hl7: Hl7Service;
  }
}

/** How often the listeners follow the HL7 sources' settings (added, changed, disabled, deleted). */
const RECONCILE_MS = 5_000;

export interface Hl7Service {
  listeners: Hl7Listeners;
  /**
   * Starts the listener of one source on `port` (0: any free port) and returns the port:
   * tests (HL7_LISTEN off) use it; the app itself starts the sources' own ports.
   */
  listen(sourceId: number, port?: number): Promise<number>;
  /** Starts, moves and stops listeners to match the enabled HL7 sources and their ports. */
  reconcile(): Promise<void>;
  /** Queues the processing of a source's stored messages (once: a queued job takes them all). */
  kick(source: ListenerSource): Promise<void>;
}

/**
 * HL7 v2 collection (collection/README.md): the listeners of the enabled HL7 sources (when
 * HL7_LISTEN is on, on HL7_HOST and each source's `config.listenPort`), the job that processes
 * stored messages into the CDR, and the message list of 采集监控.
 */
export const hl7Routes = fp(async (app: FastifyInstance) => {
  const db = app.db;
  const queued = new Set<number>();
  const busy = new Map<number, Promise<unknown>>();
  const listeners = new Hl7Listeners(db, {
    host: app.config.hl7Host,
    log: app.log,
    onStored: (s) => {
      service
        .kick(s)
        .catch((e) => app.log.error({ sourceId: s.id, err: (e as Error).message }, 'hl7 kick failed'));
    },
  });
  const handler = hl7Job((sourceId) => queued.delete(sourceId));
  // One job at a time per source in this process: messages are processed in the order they came.
  app.jobs.handle(HL7_JOB_KIND, async (ctx) => {
    const sourceId = Number((ctx.job.params as { sourceId?: number }).sourceId);
    const before = busy.get(sourceId) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(() => handler(ctx));
    busy.set(sourceId, mine);
    try {
      return await mine;
    } finally {
      if (busy.get(sourceId) === mine) busy.delete(sourceId);
    }
  });

  const sourceRow = async (id: number) => {
    const [s] = await db.select().from(collectionSources).where(eq(collectionSources.id, id));
    return s;
  };
  const service: Hl7Service = {
    listeners,
    async listen(sourceId, port = 0) {
      const s = await sourceRow(sourceId);
      if (s?.kind !== 'hl7') throw new Error(`no HL7 source ${sourceId}`);
      return listeners.listen({ id: s.id, appId: s.appId }, port);
    },
    async reconcile() {
      const rows = await db.select().from(collectionSources).where(eq(collectionSources.kind, 'hl7'));
      const want = new Map<number, { s: (typeof rows)[number]; port: number }>();
      for (const s of rows) {
        const port = collectionSourceConfig.safeParse(s.config).data?.listenPort ?? 0;
        if (s.enabled && port > 0) want.set(s.id, { s, port });
      }
      for (const id of listeners.sources()) if (!want.has(id)) await listeners.stop(id);
      for (const { s, port } of want.values())
        await listeners.listen({ id: s.id, appId: s.appId }, port).catch((e) => {
          app.log.error({ sourceId: s.id, port, err: (e as Error).message }, 'hl7 listener could not start');
        });
    },
    async kick(s) {
      if (queued.has(s.id)) return;
      queued.add(s.id);
      try {
        await enqueueJob(db, { appId: s.appId, kind: HL7_JOB_KIND, params: { sourceId: s.id } });
      } catch (e) {
        queued.delete(s.id);
        throw e;
      }
      app.jobs.nudge();
    },
  };
  app.decorate('hl7', service);

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    // Messages stored before a stop or a crash and not yet processed: queued again.
    const left = await db
      .selectDistinct({ id: hl7Messages.sourceId, appId: hl7Messages.appId })
      .from(hl7Messages)
      .where(eq(hl7Messages.status, 'stored'));
    for (const s of left) await service.kick(s);
    if (!app.config.hl7Listen) return;
    await service.reconcile();
    timer = setInterval(() => {
      service.reconcile().catch((e) => app.log.error({ err: (e as Error).message }, 'hl7 reconcile failed'));
    }, RECONCILE_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    await listeners.close();
  });

  const api = restRoutes(app, { tags: ['collection'] });
  api.get(
    '/api/v0.1/collection/hl7-messages',
    {
      access: { apiId: 'DataLakeCollectionMonitoring.query' },
      summary: 'HL7 messages received, newest first (without their content)',
      query: hl7MessageQuery,
      answer: hl7MessagePage,
    },
    (req) => listMessages(db, signedIn(req.ctx).appId, req.query, req.ctx.locale),
  );
});

export async function listMessages(
  db: Db,
  appId: number,
  q: z.output<typeof hl7MessageQuery>,
  locale: Locale,
): Promise<z.infer<typeof hl7MessagePage>> {
  const where = and(
    eq(hl7Messages.appId, appId),
    q.sourceId ? eq(hl7Messages.sourceId, q.sourceId) : undefined,
    q.status ? eq(hl7Messages.status, q.status) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(hl7Messages).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await db
    .select({
      id: hl7Messages.id,
      sourceId: hl7Messages.sourceId,
      controlId: hl7Messages.controlId,
      type: hl7Messages.type,
      status: hl7Messages.status,
      error: hl7Messages.error,
      receivedAt: hl7Messages.receivedAt,
    })
    .from(hl7Messages)
    .where(where)
    .orderBy(desc(hl7Messages.id))
    .limit(limit)
    .offset(offset);
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      id: r.id,
      sourceId: r.sourceId,
      controlId: r.controlId,
      type: r.type,
      status: r.status as z.infer<typeof hl7MessagePage>['items'][number]['status'],
      error: r.error ? ((r.error as Bilingual)[locale] ?? '') : '',
      receivedAt: r.receivedAt.toISOString(),
    })),
  };
}
