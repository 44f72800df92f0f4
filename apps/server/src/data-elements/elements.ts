import {
  type DataElement,
  type DataElementDetail,
  type DataElementList,
  type DataElementUpdates,
  type dataElementCreate,
  dataElementDefinition,
  type dataElementPublish,
  diffDataElement,
} from '@crdp/core';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { containsPattern } from '../db/like.js';
import {
  dataElementSubscriptions,
  dataElements,
  dataElementVersions,
  notices,
  users,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField } from '../http/errors.js';
import { notify } from '../notices/routes.js';

/** Where a subscriber reads what changed (the header's red icon links here too). */
export const SUBSCRIBE_PAGE = '/data-element/data-element-subscribe?isnotify=true';

type Row = typeof dataElements.$inferSelect;

const elementOf = appRowOf(dataElements, 'data_element');
const trail = auditTrail('data_element', 'dataElement');

async function versionOf(db: Tx, id: number, version: number) {
  const [v] = await db
    .select()
    .from(dataElementVersions)
    .where(and(eq(dataElementVersions.elementId, id), eq(dataElementVersions.version, version)));
  return v!;
}

async function views(db: Tx, appId: number, userId: number, rows: Row[]): Promise<DataElement[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const current = await db
    .select()
    .from(dataElementVersions)
    .where(
      and(
        inArray(dataElementVersions.elementId, ids),
        sql`(${dataElementVersions.elementId}, ${dataElementVersions.version}) in (select id, version from data_elements where app_id = ${appId})`,
      ),
    );
  const subs = await db
    .select({ elementId: dataElementSubscriptions.elementId, n: count() })
    .from(dataElementSubscriptions)
    .where(inArray(dataElementSubscriptions.elementId, ids))
    .groupBy(dataElementSubscriptions.elementId);
  const mine = await db
    .select()
    .from(dataElementSubscriptions)
    .where(
      and(inArray(dataElementSubscriptions.elementId, ids), eq(dataElementSubscriptions.userId, userId)),
    );
  return rows.map((r) => {
    const v = current.find((c) => c.elementId === r.id)!;
    const m = mine.find((s) => s.elementId === r.id);
    return {
      id: r.id,
      code: r.code,
      version: r.version,
      definition: dataElementDefinition.parse(v.definition),
      publishedAt: v.publishedAt.toISOString(),
      subscribed: !!m,
      seenVersion: m ? m.seenVersion : null,
      subscribers: subs.find((s) => s.elementId === r.id)?.n ?? 0,
    };
  });
}

export async function listElements(ctx: SignedIn, keyword: string): Promise<DataElementList> {
  const rows = await ctx.db
    .select()
    .from(dataElements)
    .where(
      and(
        eq(dataElements.appId, ctx.appId),
        keyword
          ? or(
              ilike(dataElements.code, containsPattern(keyword)),
              sql`exists (select 1 from data_element_versions v where v.element_id = ${dataElements.id}
                and v.version = ${dataElements.version} and v.definition->>'name' ilike ${containsPattern(keyword)})`,
            )
          : undefined,
      ),
    )
    .orderBy(asc(dataElements.code));
  return { items: await views(ctx.db, ctx.appId, ctx.userId, rows) };
}

export async function elementDetail(ctx: SignedIn, id: number): Promise<DataElementDetail> {
  const row = await elementOf(ctx.db, ctx.appId, id);
  const [view] = await views(ctx.db, ctx.appId, ctx.userId, [row]);
  const versions = await ctx.db
    .select({ v: dataElementVersions, by: users.userName })
    .from(dataElementVersions)
    .leftJoin(users, eq(users.userId, dataElementVersions.publishedBy))
    .where(eq(dataElementVersions.elementId, id))
    .orderBy(desc(dataElementVersions.version));
  return {
    ...view!,
    versions: versions.map(({ v, by }) => ({
      version: v.version,
      definition: dataElementDefinition.parse(v.definition),
      note: v.note,
      publishedBy: by ?? '',
      publishedAt: v.publishedAt.toISOString(),
    })),
  };
}

/** A data steward creates an element with its first version. */
export async function createElement(ctx: SignedIn, input: z.output<typeof dataElementCreate>) {
  return ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: dataElements.id })
      .from(dataElements)
      .where(and(eq(dataElements.appId, ctx.appId), sql`lower(${dataElements.code}) = lower(${input.code})`));
    if (taken)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(`数据元编码 ${input.code} 已存在`, `the data element code ${input.code} is taken`),
      });
    const [row] = await tx
      .insert(dataElements)
      .values({ appId: ctx.appId, code: input.code, version: 1, createdBy: ctx.userId })
      .returning();
    await tx.insert(dataElementVersions).values({
      elementId: row!.id,
      appId: ctx.appId,
      version: 1,
      definition: input.definition,
      note: input.note,
      publishedBy: ctx.userId,
    });
    const [after] = await views(tx, ctx.appId, ctx.userId, [row!]);
    return trail.added(tx, ctx, row!.id, after!);
  });
}

/**
 * Publishes a new version: every subscriber (but the publisher) gets a `dataElement.published`
 * notice, which lights their header's icon until they read the changes.
 */
export async function publishVersion(ctx: SignedIn, id: number, input: z.output<typeof dataElementPublish>) {
  return ctx.db.transaction(async (tx) => {
    const row = await elementOf(tx, ctx.appId, id);
    const prev = await versionOf(tx, id, row.version);
    const changes = diffDataElement(dataElementDefinition.parse(prev.definition), input.definition);
    if (!changes.length)
      throw invalidField(
        'body.definition',
        '新版本与当前版本没有不同',
        'the new version does not differ from the current one',
      );
    const version = row.version + 1;
    await tx.insert(dataElementVersions).values({
      elementId: id,
      appId: ctx.appId,
      version,
      definition: input.definition,
      note: input.note,
      publishedBy: ctx.userId,
    });
    await tx.update(dataElements).set({ version, updatedAt: new Date() }).where(eq(dataElements.id, id));
    const subs = await tx
      .select({ userId: dataElementSubscriptions.userId })
      .from(dataElementSubscriptions)
      .where(eq(dataElementSubscriptions.elementId, id));
    for (const s of subs)
      if (s.userId !== ctx.userId)
        await notify(tx, {
          appId: ctx.appId,
          userId: s.userId,
          kind: 'dataElement.published',
          title: `${row.code} ${input.definition.name} v${version}`,
          body: input.note,
          link: SUBSCRIBE_PAGE,
        });
    const [after] = await views(tx, ctx.appId, ctx.userId, [{ ...row, version }]);
    await audit(tx, ctx, {
      action: 'dataElement.publish',
      entity: 'data_element',
      entityId: id,
      before: { version: row.version, definition: prev.definition },
      after: { version, definition: input.definition, changes, notified: subs.length },
    });
    return after!;
  });
}

export async function deleteElement(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const row = await elementOf(tx, ctx.appId, id);
    await tx.delete(dataElements).where(eq(dataElements.id, id));
    await trail.deleted(tx, ctx, id, row);
    return true as const;
  });
}

/** Subscribes the signed-in user (having read the current version) or ends the subscription. */
export async function setSubscribed(ctx: SignedIn, id: number, on: boolean) {
  return ctx.db.transaction(async (tx) => {
    const row = await elementOf(tx, ctx.appId, id);
    const mine = and(
      eq(dataElementSubscriptions.elementId, id),
      eq(dataElementSubscriptions.userId, ctx.userId),
    );
    if (on)
      await tx
        .insert(dataElementSubscriptions)
        .values({
          elementId: id,
          appId: ctx.appId,
          userId: ctx.userId,
          seenVersion: row.version,
          seenAt: new Date(),
        })
        .onConflictDoNothing();
    else await tx.delete(dataElementSubscriptions).where(mine);
    await audit(tx, ctx, {
      action: on ? 'dataElement.subscribe' : 'dataElement.unsubscribe',
      entity: 'data_element',
      entityId: id,
      after: { userId: ctx.userId },
    });
    const [after] = await views(tx, ctx.appId, ctx.userId, [row]);
    return after!;
  });
}

/** The subscribed elements with versions the user has not read, and what changed since the one they read. */
export async function updatesOf(ctx: SignedIn): Promise<DataElementUpdates> {
  const rows = await ctx.db
    .select({ e: dataElements, seen: dataElementSubscriptions.seenVersion })
    .from(dataElementSubscriptions)
    .innerJoin(dataElements, eq(dataElements.id, dataElementSubscriptions.elementId))
    .where(
      and(
        eq(dataElementSubscriptions.userId, ctx.userId),
        eq(dataElementSubscriptions.appId, ctx.appId),
        sql`${dataElements.version} > ${dataElementSubscriptions.seenVersion}`,
      ),
    )
    .orderBy(asc(dataElements.code));
  const items: DataElementUpdates['items'] = [];
  for (const { e, seen } of rows) {
    const versions = await ctx.db
      .select()
      .from(dataElementVersions)
      .where(and(eq(dataElementVersions.elementId, e.id), sql`${dataElementVersions.version} >= ${seen}`))
      .orderBy(asc(dataElementVersions.version));
    const from = versions[0]!;
    const to = versions[versions.length - 1]!;
    const toDef = dataElementDefinition.parse(to.definition);
    items.push({
      id: e.id,
      code: e.code,
      name: toDef.name,
      fromVersion: from.version,
      toVersion: to.version,
      notes: versions.slice(1).flatMap((v) => (v.note ? [`v${v.version}: ${v.note}`] : [])),
      changes: diffDataElement(dataElementDefinition.parse(from.definition), toDef),
      publishedAt: to.publishedAt.toISOString(),
    });
  }
  return { items };
}

/** The user has read the changes: every subscription catches up and the icon's notices are read. */
export async function markRead(ctx: SignedIn) {
  return ctx.db.transaction(async (tx) => {
    const caught = await tx
      .update(dataElementSubscriptions)
      .set({
        seenVersion: sql`(select version from data_elements d where d.id = ${dataElementSubscriptions.elementId})`,
        seenAt: new Date(),
      })
      .where(
        and(
          eq(dataElementSubscriptions.userId, ctx.userId),
          eq(dataElementSubscriptions.appId, ctx.appId),
          sql`${dataElementSubscriptions.seenVersion} < (select version from data_elements d where d.id = ${dataElementSubscriptions.elementId})`,
        ),
      )
      .returning({ id: dataElementSubscriptions.elementId });
    const read = await tx
      .update(notices)
      .set({ readAt: new Date() })
      .where(
        and(
          eq(notices.userId, ctx.userId),
          eq(notices.appId, ctx.appId),
          eq(notices.kind, 'dataElement.published'),
          isNull(notices.readAt),
        ),
      )
      .returning({ id: notices.id });
    return { elements: caught.length, notices: read.length };
  });
}

export const elementsOf = async (db: Db, appId: number) =>
  (await db.select({ id: dataElements.id }).from(dataElements).where(eq(dataElements.appId, appId))).map(
    (r) => ({
      id: r.id,
    }),
  );
