import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import type { qcPlans, qcRules } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';
import { QC_KINDS, QC_SEVERITIES } from './catalogue.js';

/** Who is asking: the session's app and user. Every query of the area is scoped to `appId`. */
export interface Actor {
  appId: number;
  userId: number | null;
  userName: string;
}

export function actorOf(req: FastifyRequest): Actor {
  if (!req.auth) throw new AppError(401, 'auth.required');
  return { appId: req.auth.appId, userId: req.auth.userId, userName: req.auth.userName };
}

// zod counts code points; the limit is also held in UTF-16 units, as the OpenAPI maxLength says.
const bounded = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, `at most ${max} characters`)
    .transform((s) => s.trim());
const name = bounded(100).pipe(z.string().min(1));
const key = z.string().max(40);
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const finite = z.number().min(-1e15).max(1e15);

export const ruleInput = z.object({
  name,
  description: bounded(500).default(''),
  table: key,
  kind: z.enum(QC_KINDS),
  column: key,
  severity: z.enum(QC_SEVERITIES).default('error'),
  enabled: z.boolean().default(true),
  /** range: bounds, inclusive; at least one. */
  min: finite.nullish(),
  max: finite.nullish(),
  /** pattern: a regular expression the whole value must match (anchor it yourself). */
  pattern: z.string().max(200).nullish(),
  /** allowed: the values accepted. */
  values: z.array(z.string().max(100)).max(200).nullish(),
  /** date_order: the column that must not be earlier than `column`. */
  otherColumn: key.nullish(),
  /** Any kind: check only rows whose `filterColumn` equals `filterValue` (e.g. item code ALT). */
  filterColumn: key.nullish(),
  filterValue: z.string().max(100).nullish(),
});
export type RuleInput = z.infer<typeof ruleInput>;

export const planInput = z.object({
  name,
  description: bounded(500).default(''),
  enabled: z.boolean().default(true),
  ruleIds: z.array(serialId).min(1).max(100),
});
export type PlanInput = z.infer<typeof planInput>;

export const taskInput = z.object({ planId: serialId });

const page = z.coerce.number().int().min(1).max(100_000).default(1);
const size = z.coerce.number().int().min(1).max(200).default(20);
export const listQuery = z.object({
  page,
  size,
  keyword: z.string().max(100).optional(),
  enabled: z.enum(['true', 'false']).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;
export const pageQuery = z.object({ page, size });
export const faultQuery = z.object({
  page,
  size,
  taskRuleId: serialId.optional(),
  keyword: z.string().max(100).optional(),
});
export type FaultQuery = z.infer<typeof faultQuery>;
export const exportQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });

export const ruleParams = z.object({ ruleId: serialId });
export const planParams = z.object({ planId: serialId });
export const taskParams = z.object({ taskId: serialId });

export const ok = <T>(data: T) => ({ code: 200, data, message: 'ok' });
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
