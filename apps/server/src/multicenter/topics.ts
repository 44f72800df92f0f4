import { type DetectionIssue, isTaskStatus, type Locale, PRODUCT_ID, type TaskStatus } from '@crdp/core';
import { and, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import {
  appProducts,
  apps,
  mcTopicCases,
  mcTopicCenters,
  mcTopicStatusLog,
  mcTopics,
  patients,
} from '../db/schema/index.js';
import { AppError, invalidField, notFound } from '../http/errors.js';
import { schemaMessage } from '../http/validation-messages.js';
import { describe } from '../research/stats/methods.js';
import { statusLabel, TRANSITIONS } from '../research/status.js';
import { readConfigValue } from '../site/service.js';

/** Text of at most `max` UTF-16 units after trimming (zod counts characters; storage and the harness count units). */
const text = (max: number, min = 0) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => s.length <= max, { message: `at most ${max} characters` });

/**
 * Multi-center topics. A topic is led by one app (center) and joined by others. Each center
 * enters and reads only its own cases; what crosses app boundaries is aggregate only (counts,
 * summaries, issue counts per center), never a row of another hospital's patient.
 */
const varKey = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/);
export const topicVariable = z
  .object({
    key: varKey,
    label: text(100, 1),
    required: z.boolean().default(true),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
  })
  .refine((v) => v.min === undefined || v.max === undefined || v.min <= v.max, {
    message: schemaMessage('min 不能大于 max', 'min must not exceed max'),
    path: ['min'],
  });
export const protocolSchema = z.object({
  background: text(5000).default(''),
  objectives: text(5000).default(''),
  design: text(5000).default(''),
  endpoints: text(5000).default(''),
});
export const topicInput = z.object({
  name: text(200, 1),
  typeCode: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9-]{0,39}$/)
    .default('cohort'),
  protocol: protocolSchema.default({ background: '', objectives: '', design: '', endpoints: '' }),
  variables: z.array(topicVariable).min(1).max(50),
  /** Other apps (centers) taking part; the creating app leads. */
  centerAppIds: z.array(z.number().int().positive().max(2_147_483_647)).max(50).default([]),
});
export const caseInput = z.object({
  patientId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  values: z.record(varKey, z.union([z.number().finite(), z.string().max(200), z.null()])),
});
type TopicVariable = z.infer<typeof topicVariable>;

const invalid = invalidField;

export async function assertMultiCenter(db: Tx, appId: number) {
  const mode = await readConfigValue(db, appId, 'site', 'features', 'mode');
  if (mode !== 'multi-center') throw new AppError(403, 'multiCenter.off');
}

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
export const moveInput = z.object({
  to: z.string().refine(isTaskStatus, { message: schemaMessage('不是有效的任务状态', 'not a task status') }),
});

/** The topic and this app's role in it; a topic the app does not take part in is 404. */
export async function topicFor(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select({ t: mcTopics, role: mcTopicCenters.role })
    .from(mcTopics)
    .innerJoin(mcTopicCenters, and(eq(mcTopicCenters.topicId, mcTopics.id), eq(mcTopicCenters.appId, appId)))
    .where(eq(mcTopics.id, id));
  if (!row) throw notFound('topic');
  return { topic: row.t, role: row.role as 'lead' | 'member' };
}

export async function createTopic(
  db: Db,
  req: FastifyRequest,
  appId: number,
  userId: number,
  input: z.infer<typeof topicInput>,
) {
  await assertMultiCenter(db, appId);
  const others = [...new Set(input.centerAppIds.filter((a) => a !== appId))];
  if (others.length) {
    const found = await db.select({ appId: apps.appId }).from(apps).where(inArray(apps.appId, others));
    const known = new Set(found.map((f) => f.appId));
    const i = input.centerAppIds.findIndex((a) => a !== appId && !known.has(a));
    if (i >= 0) throw invalid(`centerAppIds.${i}`, '没有这个中心', 'no such center');
  }
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
        ...others.map((a) => ({ topicId: t!.id, appId: a, role: 'member' })),
      ]);
    await audit(tx, req, {
      action: 'create',
      entity: 'mc_topic',
      entityId: t!.id,
      after: { ...t, centers: [appId, ...others] },
    });
    return t!;
  });
}

export async function listTopics(db: Tx, appId: number) {
  const rows = await db
    .select({ t: mcTopics, role: mcTopicCenters.role, leadName: apps.name })
    .from(mcTopicCenters)
    .innerJoin(mcTopics, eq(mcTopics.id, mcTopicCenters.topicId))
    .innerJoin(apps, eq(apps.appId, mcTopics.appId))
    .where(eq(mcTopicCenters.appId, appId))
    .orderBy(sql`${mcTopics.id} desc`);
  const counts = await db
    .select({ topicId: mcTopicCenters.topicId, n: sql<number>`count(*)::int` })
    .from(mcTopicCenters)
    .groupBy(mcTopicCenters.topicId);
  return rows.map((r) => ({
    id: r.t.id,
    name: r.t.name,
    typeCode: r.t.typeCode,
    status: r.t.status,
    role: r.role,
    leadCenter: r.leadName,
    centers: Number(counts.find((c) => c.topicId === r.t.id)?.n ?? 1),
    createdAt: r.t.createdAt.toISOString(),
  }));
}

export async function topicDescription(db: Tx, appId: number, id: number) {
  const { topic, role } = await topicFor(db, appId, id);
  const centers = await db
    .select({ appId: mcTopicCenters.appId, role: mcTopicCenters.role, name: apps.name })
    .from(mcTopicCenters)
    .innerJoin(apps, eq(apps.appId, mcTopicCenters.appId))
    .where(eq(mcTopicCenters.topicId, id))
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
    protocol: topic.protocol,
    variables: topic.variables,
    role,
    centers,
    /** Moves the caller may make now: only the leading center moves a topic. */
    moves: role === 'lead' ? topicMoves(topic.status) : [],
    canEnter: ENTRY_STATUSES.includes(topic.status as TaskStatus),
    history: history.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      userName: h.userName,
      at: h.at.toISOString(),
    })),
  };
}

export async function updateProtocol(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  protocol: z.infer<typeof protocolSchema>,
) {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(mcTopics)
      .set({ protocol, updatedAt: new Date() })
      .where(eq(mcTopics.id, id))
      .returning();
    await audit(tx, req, {
      action: 'update',
      entity: 'mc_topic',
      entityId: id,
      before: topic.protocol,
      after: protocol,
    });
    return after!;
  });
}

/** A center enters a case for one of its own patients. */
export async function enterCase(
  db: Db,
  req: FastifyRequest,
  appId: number,
  userId: number,
  id: number,
  input: z.infer<typeof caseInput>,
) {
  await assertMultiCenter(db, appId);
  const { topic } = await topicFor(db, appId, id);
  if (!ENTRY_STATUSES.includes(topic.status as TaskStatus))
    throw new AppError(409, 'multiCenter.frozen', {
      status: statusLabel(topic.status, req.locale),
      allowed: ENTRY_STATUSES.map((c) => statusLabel(c, req.locale)).join(
        req.locale === 'zh-CN' ? '、' : ', ',
      ),
    });
  const [p] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, input.patientId), eq(patients.appId, appId)));
  if (!p) throw invalid('patientId', '没有这名患者', 'no such patient');
  const vars = topic.variables as TopicVariable[];
  for (const k of Object.keys(input.values))
    if (!vars.some((v) => v.key === k))
      throw invalid(`values.${k}`, '不是本课题的变量', 'not a variable of the topic');
  for (const v of vars) {
    const x = input.values[v.key];
    if (typeof x === 'string' && (v.min !== undefined || v.max !== undefined) && x.trim() !== '')
      throw invalid(`values.${v.key}`, `${v.label}应为数字`, `${v.label} must be a number`);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcTopicCases)
      .values({ topicId: id, appId, patientId: input.patientId, values: input.values, enteredBy: userId })
      .onConflictDoUpdate({
        target: [mcTopicCases.topicId, mcTopicCases.patientId],
        set: { values: input.values, enteredAt: new Date() },
      })
      .returning();
    await audit(tx, req, { action: 'upsert', entity: 'mc_topic_case', entityId: row!.id, after: row });
    return { id: row!.id };
  });
}

/** This center's own cases (rows of its own patients only). */
export async function ownCases(db: Tx, appId: number, id: number) {
  await topicFor(db, appId, id);
  const rows = await db
    .select({
      id: mcTopicCases.id,
      patientId: mcTopicCases.patientId,
      mrn: patients.mrn,
      values: mcTopicCases.values,
      enteredAt: mcTopicCases.enteredAt,
    })
    .from(mcTopicCases)
    .innerJoin(patients, eq(patients.id, mcTopicCases.patientId))
    .where(and(eq(mcTopicCases.topicId, id), eq(mcTopicCases.appId, appId)));
  return rows.map((r) => ({ ...r, enteredAt: r.enteredAt.toISOString() }));
}

type CaseRow = {
  appId: number;
  patientId: number;
  mrn: string;
  values: Record<string, unknown>;
  nationalId: string;
  name: string;
  birthDate: string | null;
};

async function casesOf(db: Tx, topicId: number, appIds: number[]): Promise<CaseRow[]> {
  if (!appIds.length) return [];
  const rows = await db
    .select({
      appId: mcTopicCases.appId,
      patientId: mcTopicCases.patientId,
      mrn: patients.mrn,
      values: mcTopicCases.values,
      nationalId: patients.nationalId,
      name: patients.name,
      birthDate: patients.birthDate,
    })
    .from(mcTopicCases)
    .innerJoin(patients, eq(patients.id, mcTopicCases.patientId))
    .where(and(eq(mcTopicCases.topicId, topicId), inArray(mcTopicCases.appId, appIds)));
  return rows.map((r) => ({ ...r, values: r.values as Record<string, unknown> }));
}

/** Pooled, de-identified aggregates: the lead sees every center, a member its own. */
export async function pooled(db: Tx, appId: number, id: number) {
  const d = await topicDescription(db, appId, id);
  const visible = d.role === 'lead' ? d.centers : d.centers.filter((c) => c.appId === appId);
  const cases = await casesOf(
    db,
    id,
    visible.map((c) => c.appId),
  );
  const vars = d.variables as TopicVariable[];
  const summarise = (rows: CaseRow[]) => ({
    cases: rows.length,
    variables: vars.map((v) => ({
      key: v.key,
      label: v.label,
      ...describe(rows.map((r) => r.values[v.key] ?? null)),
    })),
  });
  return {
    role: d.role,
    total: summarise(cases),
    centers: visible.map((c) => ({
      appId: c.appId,
      name: c.name,
      ...summarise(cases.filter((r) => r.appId === c.appId)),
    })),
  };
}

export type Issue = DetectionIssue;

/** Data-quality checks per center: completeness, values out of range, duplicate patients; `detail` in `locale`. */
export function detectIssues(vars: TopicVariable[], rows: CaseRow[], locale: Locale = 'zh-CN'): Issue[] {
  const zh = locale === 'zh-CN';
  const issues: Issue[] = [];
  const seen = new Map<string, { id: number; mrn: string }>();
  for (const r of rows) {
    for (const v of vars) {
      const x = r.values[v.key];
      if (x === undefined || x === null || x === '') {
        if (v.required)
          issues.push({
            kind: 'missing',
            variable: v.key,
            label: v.label,
            patientId: r.patientId,
            mrn: r.mrn,
            detail: zh ? `${v.label}为空` : `${v.label} is empty`,
          });
        continue;
      }
      if (typeof x === 'number' && ((v.min !== undefined && x < v.min) || (v.max !== undefined && x > v.max)))
        issues.push({
          kind: 'outOfRange',
          variable: v.key,
          label: v.label,
          value: x,
          min: v.min,
          max: v.max,
          patientId: r.patientId,
          mrn: r.mrn,
          detail: zh
            ? `${v.label} = ${x}，应在 ${v.min ?? '-∞'}..${v.max ?? '∞'} 之间`
            : `${v.label} = ${x}, expected ${v.min ?? '-∞'}..${v.max ?? '∞'}`,
        });
    }
    const key = r.nationalId || `${r.name}|${r.birthDate ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined)
      issues.push({
        kind: 'duplicate',
        patientId: r.patientId,
        mrn: r.mrn,
        sameAs: first.mrn,
        detail: zh ? `与患者 ${first.mrn} 是同一人` : `same person as patient ${first.mrn}`,
      });
    else seen.set(key, { id: r.patientId, mrn: r.mrn });
  }
  return issues;
}

export async function detection(db: Tx, appId: number, id: number, locale: Locale = 'zh-CN') {
  const d = await topicDescription(db, appId, id);
  const vars = d.variables as TopicVariable[];
  const visible = d.role === 'lead' ? d.centers : d.centers.filter((c) => c.appId === appId);
  const cases = await casesOf(
    db,
    id,
    visible.map((c) => c.appId),
  );
  return visible.map((c) => {
    const rows = cases.filter((r) => r.appId === c.appId);
    const issues = detectIssues(vars, rows, locale);
    const cells = rows.length * vars.length;
    const missing = issues.filter((i) => i.kind === 'missing').length;
    return {
      appId: c.appId,
      name: c.name,
      cases: rows.length,
      completeness: cells ? (cells - missing) / cells : null,
      counts: {
        missing,
        outOfRange: issues.filter((i) => i.kind === 'outOfRange').length,
        duplicate: issues.filter((i) => i.kind === 'duplicate').length,
      },
      // What to fix names patients only for the center's own cases.
      issues: c.appId === appId ? issues : [],
    };
  });
}

export async function ownedTopicIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: mcTopicCenters.topicId })
    .from(mcTopicCenters)
    .where(eq(mcTopicCenters.appId, appId))
    .limit(3);
  return rows.map((r) => ({ id: r.id }));
}

/** The leading center moves the topic; an illegal move is refused with the moves allowed now. */
export async function moveTopic(db: Db, req: FastifyRequest, appId: number, id: number, to: TaskStatus) {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  const from = topic.status;
  const allowed = topicMoves(from);
  if (!allowed.includes(to))
    throw new AppError(409, 'multiCenter.illegalMove', {
      from: statusLabel(from, req.locale),
      to: statusLabel(to, req.locale),
      allowed: allowed.length
        ? allowed.map((c) => `${statusLabel(c, req.locale)} (${c})`).join(', ')
        : req.locale === 'zh-CN'
          ? '无（终态）'
          : 'none (final)',
    });
  const auth = req.auth!;
  return db.transaction(async (tx) => {
    // Compare-and-set: two people moving at once cannot both win from the same status.
    const [after] = await tx
      .update(mcTopics)
      .set({ status: to, updatedAt: new Date() })
      .where(and(eq(mcTopics.id, id), eq(mcTopics.status, from)))
      .returning();
    if (!after)
      throw new AppError(409, 'multiCenter.illegalMove', {
        from: statusLabel(from, req.locale),
        to: statusLabel(to, req.locale),
        allowed: '-',
      });
    await tx.insert(mcTopicStatusLog).values({
      appId,
      topicId: id,
      fromStatus: from,
      toStatus: to,
      userId: auth.userId,
      userName: auth.userName,
    });
    await audit(tx, req, {
      action: 'status',
      entity: 'mc_topic',
      entityId: id,
      before: { status: from },
      after: { status: to },
    });
    return { id, status: after.status, moves: topicMoves(after.status) };
  });
}

/**
 * Centers a topic can invite: other apps holding the research product that switched
 * multi-center mode on. Only names cross the boundary.
 */
export async function invitableCenters(db: Tx, appId: number) {
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

const mask = (name: string) =>
  name ? `${[...name][0]}${'*'.repeat(Math.max(1, [...name].length - 1))}` : '';

/** This center's own patients, for the case-entry picker (by MRN; names masked). */
export async function ownPatients(db: Tx, appId: number, id: number, keyword: string | undefined) {
  await topicFor(db, appId, id);
  const k = keyword?.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .select({ id: patients.id, mrn: patients.mrn, name: patients.name, gender: patients.gender })
    .from(patients)
    .where(
      and(
        eq(patients.appId, appId),
        k ? or(ilike(patients.mrn, `%${k}%`), ilike(patients.name, `%${k}%`)) : undefined,
      ),
    )
    .orderBy(sql`${patients.id} desc`)
    .limit(50);
  return rows.map((r) => ({ id: r.id, mrn: r.mrn, name: mask(r.name), gender: r.gender }));
}
