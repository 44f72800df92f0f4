import {
  isTaskStatus,
  type McCenterRole,
  type McMoved,
  type McProtocol,
  type McSettings,
  type McSettingsInput,
  type McTopicCenter,
  type McTopicDetail,
  type McTopicInput,
  type McTopicSummary,
  type McTopicVariable,
  type mcTopicRow,
  type TaskStatus,
} from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type AuditEntry, audit } from '../audit/audit.js';
import { ownedIds } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { apps, mcTopicCenters, mcTopicStatusLog, mcTopics } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { statusLabel, TRANSITIONS } from '../research/status.js';
import { assertMultiCenter, ledTopic, topicFor } from './access.js';
import { auditBothSides, invitableApp, noSuchCenter } from './invitations.js';

/**
 * Multi-center topics. A topic is led by one app (center) and joined by others. Each center
 * enters and reads only its own cases; what crosses app boundaries is aggregate only (counts,
 * summaries, issue counts per center), never a row of another hospital's patient. The request
 * and answer shapes are the contracts of @crdp/core (contracts/multicenter.ts).
 *
 * Here: creating, listing and describing topics, the protocol, status moves and the pooled-cell
 * setting. Membership is in invitations.ts, each center's cases in cases.ts, pooled results and
 * data checks in pooled.ts, the mode check and `topicFor` in access.ts.
 */

/** A stored topic as answered (its dates still `Date`s: the contract writes them out). */
type TopicRow = z.input<typeof mcTopicRow>;

const topicRow = (t: typeof mcTopics.$inferSelect): TopicRow => ({
  ...t,
  protocol: t.protocol as McProtocol,
  variables: t.variables as McTopicVariable[],
});

/**
 * The life of a topic, with the task statuses of spec 001 section 3 (the same moves as a
 * research subject): the leading center moves it; members follow.
 *
 *   staged ─► recruiting ⇄ recruitmentStopped ─► dataPreparing ⇄ dataPrepared ─► calculationDone ─► topicConcluded
 * Any status before the conclusion may be closed; a closed topic may be reopened to staged.
 * The calculation may send the topic back to data preparing (a center fixes its data).
 */
export const TOPIC_MOVES: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = TRANSITIONS;

export const topicMoves = (from: string): readonly TaskStatus[] =>
  isTaskStatus(from) ? (TOPIC_MOVES[from] ?? []) : [];

/** Centers enter and correct cases until the data is declared prepared. */
export const ENTRY_STATUSES: readonly TaskStatus[] = [
  'staged',
  'recruiting',
  'recruitmentStopped',
  'dataPreparing',
];

export async function createTopic(ctx: SignedIn, input: McTopicInput): Promise<TopicRow> {
  const { db, appId, userId } = ctx;
  await assertMultiCenter(db, appId);
  const others = [...new Set(input.centerAppIds.filter((a) => a !== appId))];
  const invited: Array<{ appId: number; name: string }> = [];
  for (const a of others) {
    const found = await invitableApp(db, { appId: a });
    if (!found) throw noSuchCenter(`centerAppIds.${input.centerAppIds.indexOf(a)}`);
    invited.push(found);
  }
  const [lead] = await db.select({ name: apps.name }).from(apps).where(eq(apps.appId, appId));
  return db.transaction(async (tx) => {
    const [t] = await tx
      .insert(mcTopics)
      .values({
        appId,
        name: input.name,
        typeCode: input.typeCode,
        protocol: input.protocol,
        variables: input.variables,
        createdBy: userId,
      })
      .returning();
    await tx
      .insert(mcTopicCenters)
      .values([
        { topicId: t!.id, appId, role: 'lead', status: 'accepted' },
        ...others.map((a) => ({ topicId: t!.id, appId: a, role: 'member', status: 'pending' })),
      ]);
    await audit(tx, ctx, {
      action: 'create',
      entity: 'mc_topic',
      entityId: t!.id,
      after: { ...t, centers: [appId], invited: others },
    });
    for (const c of invited)
      await auditBothSides(tx, ctx, 'invite', { id: t!.id, name: t!.name }, lead?.name ?? '', c);
    return topicRow(t!);
  });
}

export async function listTopics(db: Tx, appId: number): Promise<McTopicSummary[]> {
  const rows = await db
    .select({ t: mcTopics, role: mcTopicCenters.role, leadName: apps.name })
    .from(mcTopicCenters)
    .innerJoin(mcTopics, eq(mcTopics.id, mcTopicCenters.topicId))
    .innerJoin(apps, eq(apps.appId, mcTopics.appId))
    .where(and(eq(mcTopicCenters.appId, appId), eq(mcTopicCenters.status, 'accepted')))
    .orderBy(sql`${mcTopics.id} desc`);
  const counts = await db
    .select({ topicId: mcTopicCenters.topicId, n: sql<number>`count(*)::int` })
    .from(mcTopicCenters)
    .where(eq(mcTopicCenters.status, 'accepted'))
    .groupBy(mcTopicCenters.topicId);
  return rows.map((r) => ({
    id: r.t.id,
    name: r.t.name,
    typeCode: r.t.typeCode,
    status: r.t.status,
    role: r.role as McCenterRole,
    leadCenter: r.leadName,
    centers: Number(counts.find((c) => c.topicId === r.t.id)?.n ?? 1),
    createdAt: r.t.createdAt.toISOString(),
  }));
}

export async function topicDescription(db: Tx, appId: number, id: number): Promise<McTopicDetail> {
  const { topic, role } = await topicFor(db, appId, id);
  // The lead sees every invitation and its answer; a member only the centers taking part.
  const centers = await db
    .select({
      appId: mcTopicCenters.appId,
      role: mcTopicCenters.role,
      status: mcTopicCenters.status,
      name: apps.name,
    })
    .from(mcTopicCenters)
    .innerJoin(apps, eq(apps.appId, mcTopicCenters.appId))
    .where(
      and(
        eq(mcTopicCenters.topicId, id),
        role === 'lead' ? undefined : eq(mcTopicCenters.status, 'accepted'),
      ),
    )
    // The leading center first, then the others in the order they joined the site.
    .orderBy(sql`${mcTopicCenters.role} <> 'lead'`, mcTopicCenters.appId);
  const history = await db
    .select()
    .from(mcTopicStatusLog)
    .where(eq(mcTopicStatusLog.topicId, id))
    .orderBy(mcTopicStatusLog.id);
  return {
    id: topic.id,
    name: topic.name,
    typeCode: topic.typeCode,
    status: topic.status,
    protocol: topic.protocol as McProtocol,
    variables: topic.variables as McTopicVariable[],
    minCellCount: topic.minCellCount,
    role,
    centers: centers as McTopicCenter[],
    /** Moves the caller may make now: only the leading center moves a topic. */
    moves: role === 'lead' ? [...topicMoves(topic.status)] : [],
    canEnter: ENTRY_STATUSES.includes(topic.status as TaskStatus),
    history: history.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      userName: h.userName,
      at: h.at.toISOString(),
    })),
  };
}

/**
 * Changes columns of a topic this app leads, in one transaction with its audit row: `audited`
 * names the action and what the row shows before and after.
 */
async function updateLedTopic(
  ctx: SignedIn,
  id: number,
  set: Partial<typeof mcTopics.$inferInsert>,
  audited: (
    before: typeof mcTopics.$inferSelect,
    after: typeof mcTopics.$inferSelect,
  ) => Pick<AuditEntry, 'action' | 'before' | 'after'>,
) {
  const { db, appId } = ctx;
  const topic = await ledTopic(db, appId, id);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(mcTopics)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(mcTopics.id, id))
      .returning();
    await audit(tx, ctx, { entity: 'mc_topic', entityId: id, ...audited(topic, after!) });
    return after!;
  });
}

export async function updateProtocol(ctx: SignedIn, id: number, protocol: McProtocol): Promise<TopicRow> {
  const after = await updateLedTopic(ctx, id, { protocol }, (topic) => ({
    action: 'update',
    before: topic.protocol,
    after: protocol,
  }));
  return topicRow(after);
}

/** The leading center moves the topic; an illegal move is refused with the moves allowed now. */
export async function moveTopic(ctx: SignedIn, id: number, to: TaskStatus): Promise<McMoved> {
  const { db, appId } = ctx;
  const topic = await ledTopic(db, appId, id);
  const from = topic.status;
  const allowed = topicMoves(from);
  if (!allowed.includes(to))
    throw new AppError(409, 'multiCenter.illegalMove', {
      from: statusLabel(from, ctx.locale),
      to: statusLabel(to, ctx.locale),
      allowed: allowed.length
        ? allowed.map((c) => `${statusLabel(c, ctx.locale)} (${c})`).join(', ')
        : ctx.locale === 'zh-CN'
          ? '无（终态）'
          : 'none (final)',
    });
  return db.transaction(async (tx) => {
    // Compare-and-set: two people moving at once cannot both win from the same status.
    const [after] = await tx
      .update(mcTopics)
      .set({ status: to, updatedAt: new Date() })
      .where(and(eq(mcTopics.id, id), eq(mcTopics.status, from)))
      .returning();
    if (!after)
      throw new AppError(409, 'multiCenter.illegalMove', {
        from: statusLabel(from, ctx.locale),
        to: statusLabel(to, ctx.locale),
        allowed: '-',
      });
    await tx.insert(mcTopicStatusLog).values({
      appId,
      topicId: id,
      fromStatus: from,
      toStatus: to,
      userId: ctx.userId,
      userName: ctx.userName,
    });
    await audit(tx, ctx, {
      action: 'status',
      entity: 'mc_topic',
      entityId: id,
      before: { status: from },
      after: { status: to },
    });
    return { id, status: after.status, moves: [...topicMoves(after.status)] };
  });
}

/** The leading center sets the minimum count of a pooled cell (audited with before and after). */
export async function updateSettings(ctx: SignedIn, id: number, input: McSettingsInput): Promise<McSettings> {
  const after = await updateLedTopic(ctx, id, { minCellCount: input.minCellCount }, (topic, row) => ({
    action: 'settings',
    before: { minCellCount: topic.minCellCount },
    after: { minCellCount: row.minCellCount },
  }));
  return { id, minCellCount: after.minCellCount };
}

export const ownedTopicIds = ownedIds(mcTopicCenters, { id: mcTopicCenters.topicId, limit: 3 });
