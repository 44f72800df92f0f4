import type {
  AssessmentScale,
  AssessmentScaleList,
  ScaleAssessment,
  ScaleAssessmentList,
  ScaleBuiltinList,
  scaleAssessmentCreate,
  scaleAssessmentQuery,
  scaleCreate,
  scalePatch,
} from '@crdp/core';
import {
  BUILTIN_SCALES,
  builtinScale,
  ScaleAnswerError,
  type ScaleDefinition,
  scaleIssues,
  scaleRange,
  scoreScale,
} from '@crdp/crf';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { assessmentScales, patients, scaleAssessments, users, visits } from '../db/schema/index.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField, notFound } from '../http/errors.js';

type Row = typeof assessmentScales.$inferSelect;
type Definition = AssessmentScale['definition'];

const definitionOf = (r: Row): Definition => {
  const d = r.definition as ScaleDefinition;
  return {
    items: d.items,
    bands: d.bands.map((b) => ({ min: b.min, max: b.max, label: b.label, advice: b.advice ?? '' })),
  };
};

const view = (r: Row, filled = 0): AssessmentScale => {
  const definition = definitionOf(r);
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    builtinKey: r.builtinKey,
    definition,
    range: scaleRange(definition),
    filled,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
};

async function filledOf(db: Tx, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await db
    .select({ id: scaleAssessments.scaleId, n: count() })
    .from(scaleAssessments)
    .where(inArray(scaleAssessments.scaleId, ids))
    .groupBy(scaleAssessments.scaleId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export async function listScales(db: Db, appId: number): Promise<AssessmentScaleList> {
  const rows = await appRows(db, assessmentScales, appId, asc(assessmentScales.id));
  const filled = await filledOf(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => view(r, filled.get(r.id) ?? 0)) };
}

export const scaleOf = appRowOf(assessmentScales, 'assessment_scale');

export const scalesOf = ownedIds(assessmentScales);
const scaleTrail = auditTrail('assessment_scale', 'scale');

/** Duplicate codes, reversed or overlapping bands: a 400 naming the first. */
function checkDefinition(def: ScaleDefinition) {
  const [issue] = scaleIssues(def);
  if (issue) throw invalidField(`definition.${issue.path}`, issue.zh, issue.en);
}

async function viewOf(db: Tx, r: Row) {
  return view(r, (await filledOf(db, [r.id])).get(r.id) ?? 0);
}

export async function addScale(
  ctx: SignedIn,
  input: z.output<typeof scaleCreate>,
  builtinKey = '',
): Promise<AssessmentScale> {
  checkDefinition(input.definition);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(assessmentScales)
      .values({ appId: ctx.appId, ...input, builtinKey, createdBy: ctx.userId })
      .returning();
    const after = view(row!);
    return scaleTrail.added(tx, ctx, after.id, after);
  });
}

export async function editScale(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof scalePatch>,
): Promise<AssessmentScale> {
  if (input.definition) checkDefinition(input.definition);
  return ctx.db.transaction(async (tx) => {
    const before = await viewOf(tx, await scaleOf(tx, ctx.appId, id));
    const [row] = await tx
      .update(assessmentScales)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(assessmentScales.id, id))
      .returning();
    const after = await viewOf(tx, row!);
    return scaleTrail.edited(tx, ctx, id, before, after);
  });
}

/** Deletes a scale nobody has filled; a filled one is refused (its assessments keep their meaning). */
export async function deleteScale(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await viewOf(tx, await scaleOf(tx, ctx.appId, id));
    if (before.filled)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `量表“${before.name}”已填写 ${before.filled} 次，先删除这些评估记录`,
          `the scale "${before.name}" has been filled ${before.filled} time(s); delete those assessments first`,
        ),
      });
    await tx.delete(assessmentScales).where(eq(assessmentScales.id, id));
    await scaleTrail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

export async function listBuiltinScales(
  db: Db,
  ctx: RequestContext & { appId: number },
): Promise<ScaleBuiltinList> {
  const added = new Set(
    (
      await db
        .select({ key: assessmentScales.builtinKey })
        .from(assessmentScales)
        .where(and(eq(assessmentScales.appId, ctx.appId), sql`${assessmentScales.builtinKey} <> ''`))
    ).map((r) => r.key),
  );
  return {
    items: BUILTIN_SCALES.map((s) => ({
      key: s.key,
      name: s.name[ctx.locale],
      description: s.description[ctx.locale],
      items: s.items.length,
      added: added.has(s.key),
    })),
  };
}

export async function addBuiltinScale(ctx: SignedIn, key: string): Promise<AssessmentScale> {
  const b = builtinScale(key, ctx.locale);
  if (!b) throw notFound('assessment_scale');
  const bands = b.definition.bands.map((x) => ({ ...x, advice: x.advice ?? '' }));
  return addScale(ctx, { ...b, definition: { ...b.definition, bands } }, key);
}

// ---------------------------------------------------------------------------------------------
// Assessments

const assessmentColumns = {
  id: scaleAssessments.id,
  scaleId: scaleAssessments.scaleId,
  scaleName: assessmentScales.name,
  patientId: patients.id,
  mrn: patients.mrn,
  patientName: patients.name,
  visitId: scaleAssessments.visitId,
  answers: scaleAssessments.answers,
  total: scaleAssessments.total,
  band: scaleAssessments.band,
  note: scaleAssessments.note,
  assessedAt: scaleAssessments.assessedAt,
  createdBy: users.userName,
};

async function assessments(db: Tx, where: SQL): Promise<ScaleAssessment[]> {
  const rows = await db
    .select(assessmentColumns)
    .from(scaleAssessments)
    .innerJoin(assessmentScales, eq(assessmentScales.id, scaleAssessments.scaleId))
    .innerJoin(patients, eq(patients.id, scaleAssessments.patientId))
    .leftJoin(users, eq(users.userId, scaleAssessments.createdBy))
    .where(where)
    .orderBy(desc(scaleAssessments.assessedAt), desc(scaleAssessments.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    scaleId: r.scaleId,
    scaleName: r.scaleName,
    patient: { id: r.patientId, mrn: r.mrn, name: r.patientName },
    visitId: r.visitId,
    answers: r.answers as Record<string, string>,
    total: r.total,
    band: r.band,
    note: r.note,
    assessedAt: r.assessedAt.toISOString(),
    createdBy: r.createdBy ?? '',
  }));
}

export async function listAssessments(
  db: Db,
  appId: number,
  q: z.output<typeof scaleAssessmentQuery>,
): Promise<ScaleAssessmentList> {
  const conds = [eq(scaleAssessments.appId, appId)];
  if (q.patientId) conds.push(eq(scaleAssessments.patientId, q.patientId));
  if (q.scaleId) conds.push(eq(scaleAssessments.scaleId, q.scaleId));
  return { items: await assessments(db, and(...conds)!) };
}

export const assessmentsOf = ownedIds(scaleAssessments);
export const assessmentOf = appRowOf(scaleAssessments, 'scale_assessment');
const assessmentTrail = auditTrail('scale_assessment', 'scale.assessment');

/**
 * Fills a scale for a patient of the app (and one of the patient's visits): every item
 * answered with one of its options; the total and band are worked out and stored with the
 * answers.
 */
export async function fillScale(
  ctx: SignedIn,
  scaleId: number,
  input: z.output<typeof scaleAssessmentCreate>,
): Promise<ScaleAssessment> {
  return ctx.db.transaction(async (tx) => {
    const scale = await scaleOf(tx, ctx.appId, scaleId);
    const [p] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.id, input.patientId), eq(patients.appId, ctx.appId)));
    if (!p)
      throw invalidField(
        'patientId',
        `患者 ${input.patientId} 不存在`,
        `there is no patient ${input.patientId}`,
      );
    if (input.visitId !== null) {
      const [v] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.id, input.visitId),
            eq(visits.patientId, input.patientId),
            eq(visits.appId, ctx.appId),
          ),
        );
      if (!v)
        throw invalidField(
          'visitId',
          `就诊 ${input.visitId} 不是该患者的就诊`,
          `the visit ${input.visitId} is not one of this patient's visits`,
        );
    }
    const def = definitionOf(scale);
    const extra = Object.keys(input.answers).filter((k) => !def.items.some((i) => i.key === k));
    if (extra.length)
      throw invalidField(
        'answers',
        `量表没有条目 ${extra.join('、')}`,
        `the scale has no item ${extra.join(', ')}`,
      );
    let score: ReturnType<typeof scoreScale>;
    try {
      score = scoreScale(def, input.answers);
    } catch (e) {
      if (e instanceof ScaleAnswerError) throw invalidField('answers', e.zh, e.en);
      throw e;
    }
    const [row] = await tx
      .insert(scaleAssessments)
      .values({
        appId: ctx.appId,
        scaleId,
        patientId: input.patientId,
        visitId: input.visitId,
        answers: input.answers,
        total: score.total,
        band: score.band?.label ?? '',
        note: input.note,
        ...(input.assessedAt ? { assessedAt: new Date(input.assessedAt) } : {}),
        createdBy: ctx.userId,
      })
      .returning({ id: scaleAssessments.id });
    const [after] = await assessments(tx, eq(scaleAssessments.id, row!.id));
    // Ids and scores, never the patient's name.
    await assessmentTrail.added(tx, ctx, row!.id, {
      scaleId,
      patientId: input.patientId,
      visitId: input.visitId,
      answers: input.answers,
      total: score.total,
      band: after!.band,
    });
    return after!;
  });
}

export async function deleteAssessment(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await assessmentOf(tx, ctx.appId, id);
    await tx.delete(scaleAssessments).where(eq(scaleAssessments.id, id));
    await assessmentTrail.deleted(tx, ctx, id, {
      scaleId: before.scaleId,
      patientId: before.patientId,
      visitId: before.visitId,
      answers: before.answers,
      total: before.total,
      band: before.band,
    });
    return true as const;
  });
}
