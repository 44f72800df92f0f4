import {
  type McCenterAnswer,
  type McCenterStatus,
  type McInvitableCenter,
  type McInvitation,
  type McInvited,
  type McInviteInput,
  type McWithdrawn,
  PRODUCT_ID,
} from '@crdp/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { appProducts, apps, mcTopicCenters, mcTopics } from '../db/schema/index.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError, invalidField, notFound } from '../http/errors.js';
import { readConfigValue } from '../site/service.js';
import { assertMultiCenter, ledTopic, topicFor } from './access.js';

/**
 * Membership of a topic: the leading center invites apps in multi-center mode, may withdraw an
 * unanswered invitation; the invited center accepts or declines, and may leave later. Each step
 * is audited in both hospitals. See README.md (Consent: centers are invitations).
 */
const invalid = invalidField;

/**
 * The one answer for an app that cannot be invited, whether it does not exist, lacks the research
 * product or has not switched multi-center mode on: nobody learns which hospitals exist.
 */
export const noSuchCenter = (field: string) =>
  invalid(
    field,
    '没有已开启多中心模式的这个中心',
    'no center with multi-center mode switched on has this id or code',
  );

/** The app, when it holds the research product and runs in multi-center mode; else null. */
export async function invitableApp(db: Tx, by: { appId: number } | { appCode: string }) {
  const [row] = await db
    .select({ appId: apps.appId, name: apps.name, shortName: apps.appShortName })
    .from(apps)
    .innerJoin(appProducts, and(eq(appProducts.appId, apps.appId), eq(appProducts.productId, PRODUCT_ID)))
    .where('appId' in by ? eq(apps.appId, by.appId) : sql`lower(${apps.appShortName}) = lower(${by.appCode})`)
    .limit(1);
  if (!row) return null;
  const mode = await readConfigValue(db, row.appId, 'site', 'features', 'mode');
  return mode === 'multi-center' ? row : null;
}

type Side = { appId: number; name: string };

/**
 * One audit row in each hospital for a step of an invitation: the acting center's row names the
 * user; the other center's row names only the acting center (no user of another hospital).
 */
export async function auditBothSides(
  tx: Tx,
  ctx: RequestContext,
  action: 'invite' | 'withdraw' | 'accept' | 'decline' | 'leave',
  topic: { id: number; name: string },
  lead: string,
  member: Side,
) {
  const actingIsLead = action === 'invite' || action === 'withdraw';
  const after = { topicId: topic.id, topic: topic.name, leadCenter: lead, center: member.name };
  await audit(tx, ctx, { action, entity: 'mc_topic_center', entityId: `${topic.id}:${member.appId}`, after });
  const [leadApp] = actingIsLead
    ? [null]
    : await tx.select({ appId: mcTopics.appId }).from(mcTopics).where(eq(mcTopics.id, topic.id));
  await audit(tx, ctx, {
    action,
    entity: 'mc_topic_center',
    entityId: `${topic.id}:${member.appId}`,
    after,
    appId: actingIsLead ? member.appId : leadApp!.appId,
    userId: null,
    userName: actingIsLead ? lead : member.name,
  });
}

const appName = async (db: Tx, appId: number) =>
  (await db.select({ name: apps.name }).from(apps).where(eq(apps.appId, appId)))[0]?.name ?? '';

/**
 * The leading center invites an app in multi-center mode (by id from the list, or by its code).
 * A declined, withdrawn or left center may be invited again.
 */
export async function inviteCenter(ctx: SignedIn, id: number, input: McInviteInput): Promise<McInvited> {
  const { db, appId } = ctx;
  await assertMultiCenter(db, appId);
  const topic = await ledTopic(db, appId, id);
  const field = input.appId !== undefined ? 'appId' : 'appCode';
  const found = await invitableApp(
    db,
    input.appId !== undefined ? { appId: input.appId } : { appCode: input.appCode! },
  );
  if (!found || found.appId === appId) throw noSuchCenter(field);
  const lead = await appName(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcTopicCenters)
      .values({ topicId: id, appId: found.appId, role: 'member', status: 'pending' })
      .onConflictDoUpdate({
        target: [mcTopicCenters.topicId, mcTopicCenters.appId],
        set: { status: 'pending', joinedAt: new Date(), respondedAt: null },
        setWhere: inArray(mcTopicCenters.status, ['declined', 'withdrawn', 'left']),
      })
      .returning();
    if (!row) throw new AppError(409, 'multiCenter.alreadyCenter');
    await auditBothSides(tx, ctx, 'invite', topic, lead, found);
    return {
      appId: found.appId,
      name: found.name,
      role: 'member' as const,
      status: row.status as McCenterStatus,
    };
  });
}

/** The leading center takes back an invitation not yet answered. */
export async function withdrawInvitation(
  ctx: SignedIn,
  id: number,
  centerAppId: number,
): Promise<McWithdrawn> {
  const { db, appId } = ctx;
  const topic = await ledTopic(db, appId, id);
  const lead = await appName(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: 'withdrawn', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, centerAppId),
          eq(mcTopicCenters.status, 'pending'),
        ),
      )
      .returning();
    if (!row) throw new AppError(404, 'multiCenter.noInvitation');
    const name = await appName(tx, centerAppId);
    await auditBothSides(tx, ctx, 'withdraw', topic, lead, { appId: centerAppId, name });
    return { appId: centerAppId, status: row.status as McCenterStatus };
  });
}

/**
 * Invitations waiting for this center's answer: the topic's title, the leading hospital and what
 * taking part shares (aggregates only); nothing of the topic's data.
 */
export async function listInvitations(db: Tx, appId: number): Promise<McInvitation[]> {
  const rows = await db
    .select({
      topicId: mcTopics.id,
      topic: mcTopics.name,
      leadCenter: apps.name,
      invitedAt: mcTopicCenters.joinedAt,
    })
    .from(mcTopicCenters)
    .innerJoin(mcTopics, eq(mcTopics.id, mcTopicCenters.topicId))
    .innerJoin(apps, eq(apps.appId, mcTopics.appId))
    .where(and(eq(mcTopicCenters.appId, appId), eq(mcTopicCenters.status, 'pending')))
    .orderBy(sql`${mcTopicCenters.joinedAt} desc`);
  return rows.map((r) => ({
    ...r,
    invitedAt: r.invitedAt.toISOString(),
    /** What the leading center will see of this center: aggregates only, small cells hidden. */
    shares: 'aggregates' as const,
  }));
}

/** The invited center's administrator accepts or declines; only a pending invitation can be answered. */
export async function answerInvitation(
  ctx: SignedIn,
  id: number,
  answer: 'accept' | 'decline',
): Promise<McCenterAnswer> {
  const { db, appId } = ctx;
  if (answer === 'accept') await assertMultiCenter(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: answer === 'accept' ? 'accepted' : 'declined', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, appId),
          eq(mcTopicCenters.status, 'pending'),
        ),
      )
      .returning();
    if (!row) throw new AppError(404, 'multiCenter.noInvitation');
    const [topic] = await tx
      .select({ id: mcTopics.id, name: mcTopics.name, leadApp: mcTopics.appId })
      .from(mcTopics)
      .where(eq(mcTopics.id, id));
    await auditBothSides(tx, ctx, answer, topic!, await appName(tx, topic!.leadApp), {
      appId,
      name: await appName(tx, appId),
    });
    return { topicId: id, status: row.status as McCenterStatus };
  });
}

/** An accepted member stops taking part; its cases stay its own and leave the pooled results. */
export async function leaveTopic(ctx: SignedIn, id: number): Promise<McCenterAnswer> {
  const { db, appId } = ctx;
  const { topic, role } = await topicFor(db, appId, id);
  if (role === 'lead') throw new AppError(409, 'multiCenter.leadStays');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: 'left', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, appId),
          eq(mcTopicCenters.status, 'accepted'),
        ),
      )
      .returning();
    if (!row) throw notFound('topic');
    await auditBothSides(tx, ctx, 'leave', topic, await appName(tx, topic.appId), {
      appId,
      name: await appName(tx, appId),
    });
    return { topicId: id, status: row.status as McCenterStatus };
  });
}

/**
 * Centers a topic can invite: other apps holding the research product that switched
 * multi-center mode on. Only names cross the boundary.
 */
export async function invitableCenters(db: Tx, appId: number): Promise<McInvitableCenter[]> {
  await assertMultiCenter(db, appId);
  const rows = await db
    .selectDistinct({ appId: apps.appId, name: apps.name, shortName: apps.appShortName })
    .from(apps)
    .innerJoin(appProducts, and(eq(appProducts.appId, apps.appId), eq(appProducts.productId, PRODUCT_ID)))
    .where(sql`${apps.appId} <> ${appId}`)
    .orderBy(apps.appId);
  const modes = await Promise.all(rows.map((r) => readConfigValue(db, r.appId, 'site', 'features', 'mode')));
  return rows.filter((_, i) => modes[i] === 'multi-center');
}
