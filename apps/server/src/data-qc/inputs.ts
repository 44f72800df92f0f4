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
import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { containsPattern } from '../db/like.js';
import { pageOfTable } from '../db/paging.js';
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

/** LIKE pattern of a keyword with its wildcards taken literally. */
export { containsPattern as likeOf } from '../db/like.js';
export { rowsOf } from '../db/rows.js';
export { ok } from '../http/reply.js';

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
    const like = containsPattern(q.keyword.trim());
    where.push(or(ilike(t.name, like), ilike(t.description, like))!);
  }
  if (q.enabled) where.push(eq(t.enabled, q.enabled === 'true'));
  return pageOfTable(db, table, and(...where), [desc(t.id)], q);
}
