import {
  type QcFaultQuery,
  type QcListQuery,
  type QcPlanInput,
  type QcRuleInput,
  qcExportQuery,
  qcFaultQuery,
  qcListQuery,
  qcPageQuery,
  qcPlanInput,
  qcRuleInput,
  qcTaskInput,
} from '@crdp/core';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import type { qcPlans, qcRules } from '../db/schema/index.js';
import { type RequestContext, type SignedIn, signedIn } from '../http/context.js';

/**
 * Who is asking: the signed-in person of the request context, in one app. Every query of the
 * area is scoped to its `appId`; audit rows take it as their context.
 */
export type Actor = SignedIn;
export const actorOf = (ctx: RequestContext): Actor => signedIn(ctx);

/** The request shapes are the contract of @crdp/core (the web sends the same). */
export const ruleInput = qcRuleInput;
export type RuleInput = QcRuleInput;
export const planInput = qcPlanInput;
export type PlanInput = QcPlanInput;
export const taskInput = qcTaskInput;
export const listQuery = qcListQuery;
export type ListQuery = QcListQuery;
export const pageQuery = qcPageQuery;
export const faultQuery = qcFaultQuery;
export type FaultQuery = QcFaultQuery;
export const exportQuery = qcExportQuery;

const serialId = z.coerce.number().int().positive().max(2_147_483_647);
export const ruleParams = z.object({ ruleId: serialId });
export const planParams = z.object({ planId: serialId });
export const taskParams = z.object({ taskId: serialId });

/** One page of a data-QC list as the server builds it. */
export type QcPageOf<T> = { items: T[]; total: number; page: number; size: number };

export const ok = <T>(data: T) => ({ code: 200 as const, data, message: 'ok' });
export const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
/** LIKE pattern of a keyword with its wildcards taken literally. */
export const likeOf = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;

/**
 * One page of the app's rules or plans, newest first, filtered by a keyword (name or
 * description) and the enabled flag: the lists of both screens.
 */
export async function namedPage<T extends typeof qcRules | typeof qcPlans>(
  db: Db,
  table: T,
  appId: number,
  q: ListQuery,
): Promise<{ total: number; rows: Array<T['$inferSelect']> }> {
  const t = table as typeof qcRules;
  const where: SQL[] = [eq(t.appId, appId)];
  if (q.keyword?.trim()) {
    const like = likeOf(q.keyword.trim());
    where.push(or(ilike(t.name, like), ilike(t.description, like))!);
  }
  if (q.enabled) where.push(eq(t.enabled, q.enabled === 'true'));
  const [total] = await db
    .select({ n: count() })
    .from(t)
    .where(and(...where));
  const rows = await db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(desc(t.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size);
  return { total: total?.n ?? 0, rows: rows as Array<T['$inferSelect']> };
}
