import type {
  Formula,
  FormulaBuiltinList,
  FormulaList,
  FormulaTestResult,
  formulaCreate,
  formulaPatch,
  formulaTemplateCall,
  formulaTest,
} from '@crdp/core';
import {
  BUILTIN_FORMULAS,
  bindPatient,
  checkFormula,
  evaluateFormula,
  evaluateTemplate,
  FormulaError,
  type FormulaValue,
  type FormulaVariable,
  type Observed,
  type PatientFacts,
  parseFormula,
  SOURCES_WITH_CODE,
} from '@crdp/crf';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import {
  diagnoses,
  formulas,
  indicatorTemplateFormulas,
  indicatorTemplates,
  labResults,
  operations,
  patients,
  physicalExams,
} from '../db/schema/index.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField, notFound } from '../http/errors.js';

type Row = typeof formulas.$inferSelect;

/** The formulas' templates, by formula id. */
async function templatesOf(db: Tx, appId: number, ids: number[]) {
  const out = new Map<number, { id: number; name: string }[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      formulaId: indicatorTemplateFormulas.formulaId,
      id: indicatorTemplates.id,
      name: indicatorTemplates.name,
    })
    .from(indicatorTemplateFormulas)
    .innerJoin(indicatorTemplates, eq(indicatorTemplates.id, indicatorTemplateFormulas.templateId))
    .where(and(eq(indicatorTemplateFormulas.appId, appId), inArray(indicatorTemplateFormulas.formulaId, ids)))
    .orderBy(asc(indicatorTemplates.id));
  for (const r of rows) out.set(r.formulaId, [...(out.get(r.formulaId) ?? []), { id: r.id, name: r.name }]);
  return out;
}

const view = (r: Row, templates: { id: number; name: string }[] = []): Formula => ({
  id: r.id,
  name: r.name,
  description: r.description,
  unit: r.unit,
  decimals: r.decimals,
  expression: r.expression,
  variables: r.variables as FormulaVariable[],
  builtinKey: r.builtinKey,
  templates,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

async function viewOf(db: Tx, r: Row) {
  return view(r, (await templatesOf(db, r.appId, [r.id])).get(r.id));
}

export async function listFormulas(db: Db, appId: number): Promise<FormulaList> {
  const rows = await appRows(db, formulas, appId, asc(formulas.id));
  const ts = await templatesOf(
    db,
    appId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => view(r, ts.get(r.id))) };
}

export const formulaOf = appRowOf(formulas, 'formula');
const trail = auditTrail('formula', 'formula');

export const formulasOf = async (db: Db, appId: number) =>
  (await db.select({ id: formulas.id }).from(formulas).where(eq(formulas.appId, appId))).map((r) => ({
    id: r.id,
  }));

/**
 * A formula that reads: the expression parses, calls only known functions with the right
 * number of arguments and names only its variables; every variable that needs a code has one
 * and no name is used twice. A 400 names the field and the problem.
 */
export function checkDefinition(expression: string, variables: readonly FormulaVariable[]) {
  const seen = new Set<string>();
  variables.forEach((v, i) => {
    if (seen.has(v.name))
      throw invalidField(
        `variables.${i}.name`,
        `变量名“${v.name}”重复`,
        `the variable name "${v.name}" is used twice`,
      );
    seen.add(v.name);
    if (SOURCES_WITH_CODE.includes(v.source) && !v.code)
      throw invalidField(
        `variables.${i}.code`,
        `变量“${v.name}”需要填写编码（检验项目编码、体格检查项目或诊断编码前缀）`,
        `the variable "${v.name}" needs a code (lab item code, physical exam item or diagnosis code prefix)`,
      );
  });
  try {
    checkFormula(
      parseFormula(expression),
      variables.map((v) => v.name),
    );
  } catch (e) {
    if (e instanceof FormulaError) throw invalidField('expression', e.zh, e.en);
    throw e;
  }
}

export async function addFormula(
  ctx: SignedIn,
  input: z.output<typeof formulaCreate>,
  builtinKey = '',
): Promise<Formula> {
  checkDefinition(input.expression, input.variables);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(formulas)
      .values({ appId: ctx.appId, ...input, builtinKey, createdBy: ctx.userId })
      .returning();
    const after = view(row!);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editFormula(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof formulaPatch>,
): Promise<Formula> {
  return ctx.db.transaction(async (tx) => {
    const before = await formulaOf(tx, ctx.appId, id);
    checkDefinition(
      input.expression ?? before.expression,
      input.variables ?? (before.variables as FormulaVariable[]),
    );
    const [row] = await tx
      .update(formulas)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(formulas.id, id))
      .returning();
    const after = await viewOf(tx, row!);
    return trail.edited(tx, ctx, id, view(before), after);
  });
}

/** Deletes a formula no template uses; one in use is refused naming its templates. */
export async function deleteFormula(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await viewOf(tx, await formulaOf(tx, ctx.appId, id));
    if (before.templates.length) {
      const names = before.templates.map((t) => t.name);
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `公式“${before.name}”被指标模板 ${names.map((n) => `“${n}”`).join('、')} 使用，先从模板中移除`,
          `the formula "${before.name}" is used by the indicator template(s) ${names.map((n) => `"${n}"`).join(', ')}; remove it from them first`,
        ),
      });
    }
    await tx.delete(formulas).where(eq(formulas.id, id));
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

export async function listBuiltinFormulas(
  db: Db,
  ctx: RequestContext & { appId: number },
): Promise<FormulaBuiltinList> {
  const added = new Set(
    (
      await db
        .select({ key: formulas.builtinKey })
        .from(formulas)
        .where(and(eq(formulas.appId, ctx.appId), sql`${formulas.builtinKey} <> ''`))
    ).map((r) => r.key),
  );
  return {
    items: BUILTIN_FORMULAS.map((b) => ({
      key: b.key,
      name: b.name[ctx.locale],
      description: b.description[ctx.locale],
      expression: b.expression,
      added: added.has(b.key),
    })),
  };
}

/** Adds a built-in formula to the app, in the adding user's language. */
export async function addBuiltinFormula(ctx: SignedIn, key: string): Promise<Formula> {
  const b = BUILTIN_FORMULAS.find((f) => f.key === key);
  if (!b) throw notFound('formula');
  return addFormula(
    ctx,
    {
      name: b.name[ctx.locale],
      description: b.description[ctx.locale],
      unit: b.unit,
      decimals: b.decimals,
      expression: b.expression,
      variables: b.variables.map((v) => ({ ...v })),
    },
    b.key,
  );
}

// ---------------------------------------------------------------------------------------------
// Evaluation

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** What the variables need of one patient, read from the app's clinical data. */
async function factsOf(db: Tx, appId: number, patientId: number, variables: readonly FormulaVariable[]) {
  const [p] = await db
    .select({
      id: patients.id,
      mrn: patients.mrn,
      name: patients.name,
      gender: patients.gender,
      birthDate: patients.birthDate,
    })
    .from(patients)
    .where(and(eq(patients.id, patientId), eq(patients.appId, appId)));
  if (!p) throw notFound('patient');
  const codes = (source: FormulaVariable['source']) => [
    ...new Set(variables.filter((v) => v.source === source).map((v) => v.code)),
  ];
  const labs: Record<string, Observed> = {};
  const labCodes = codes('lab');
  if (labCodes.length) {
    const rows = await db
      .selectDistinctOn([labResults.itemCode], {
        code: labResults.itemCode,
        num: labResults.valueNum,
        text: labResults.valueText,
        unit: labResults.unit,
        at: labResults.collectedAt,
      })
      .from(labResults)
      .where(
        and(
          eq(labResults.appId, appId),
          eq(labResults.patientId, patientId),
          inArray(labResults.itemCode, labCodes),
          sql`(${labResults.valueNum} is not null or ${labResults.valueText} <> '')`,
        ),
      )
      .orderBy(labResults.itemCode, sql`${labResults.collectedAt} desc`, sql`${labResults.id} desc`);
    for (const r of rows) labs[r.code] = { value: r.num ?? r.text, unit: r.unit, at: iso(r.at) };
  }
  const exams: Record<string, Observed> = {};
  const examItems = codes('exam');
  if (examItems.length) {
    const rows = await db
      .selectDistinctOn([physicalExams.item], {
        item: physicalExams.item,
        value: physicalExams.value,
        unit: physicalExams.unit,
        at: physicalExams.recordedAt,
      })
      .from(physicalExams)
      .where(
        and(
          eq(physicalExams.appId, appId),
          eq(physicalExams.patientId, patientId),
          inArray(physicalExams.item, examItems),
          sql`${physicalExams.value} <> ''`,
        ),
      )
      .orderBy(physicalExams.item, sql`${physicalExams.recordedAt} desc`, sql`${physicalExams.id} desc`);
    for (const r of rows) exams[r.item] = { value: r.value, unit: r.unit, at: iso(r.at) };
  }
  const firstDiagnosis: Record<string, string> = {};
  for (const prefix of codes('firstDiagnosis')) {
    const [r] = await db
      .select({ at: sql<Date | string | null>`min(${diagnoses.diagnosedAt})` })
      .from(diagnoses)
      .where(
        and(
          eq(diagnoses.appId, appId),
          eq(diagnoses.patientId, patientId),
          sql`upper(${diagnoses.icd10}) like ${`${escapeLike(prefix.toUpperCase())}%`}`,
        ),
      );
    if (r?.at) firstDiagnosis[prefix] = iso(r.at);
  }
  const firstOperation: Record<string, string> = {};
  for (const keyword of codes('firstOperation')) {
    const [r] = await db
      .select({ at: sql<Date | string | null>`min(${operations.operatedAt})` })
      .from(operations)
      .where(
        and(
          eq(operations.appId, appId),
          eq(operations.patientId, patientId),
          keyword
            ? sql`(${operations.name} ilike ${`%${escapeLike(keyword)}%`} or ${operations.code} ilike ${`${escapeLike(keyword)}%`})`
            : sql`true`,
        ),
      );
    if (r?.at) firstOperation[keyword] = iso(r.at);
  }
  const facts: PatientFacts = {
    gender: p.gender,
    birthDate: p.birthDate,
    labs,
    exams,
    firstDiagnosis,
    firstOperation,
  };
  return { patient: { id: p.id, mrn: p.mrn, name: p.name }, facts };
}

/**
 * The test panel: a formula (as saved or as being edited) worked out on one patient of the
 * app, with the inputs it used. A formula that does not read is a 400; a patient who lacks
 * an input is an answer with `ok: false` and the error naming that input.
 */
export async function testFormula(
  db: Db,
  ctx: RequestContext & { appId: number },
  input: z.output<typeof formulaTest>,
): Promise<FormulaTestResult> {
  checkDefinition(input.expression, input.variables);
  const { patient, facts } = await factsOf(db, ctx.appId, input.patientId, input.variables);
  const { scope, inputs } = bindPatient(input.variables, facts);
  try {
    const value = evaluateFormula(parseFormula(input.expression), { scope });
    return { patient, inputs, ok: true, value, error: null };
  } catch (e) {
    if (!(e instanceof FormulaError)) throw e;
    return {
      patient,
      inputs,
      ok: false,
      value: null,
      error: { code: e.code, message: ctx.locale === 'en-US' ? e.en : e.zh },
    };
  }
}

/** The spec's computed-indicator template call; a template that cannot be worked out is a 400. */
export function callTemplate(input: z.output<typeof formulaTemplateCall>): FormulaValue {
  try {
    return evaluateTemplate(input.template_str, input.template_params as Record<string, FormulaValue>);
  } catch (e) {
    if (e instanceof FormulaError) throw invalidField('template_str', e.zh, e.en);
    throw e;
  }
}
