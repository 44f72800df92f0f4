import type {
  LibraryPatientEntry,
  LibraryRecordSaved,
  Locale,
  libraryPatientPage,
  libraryPatientView,
  LibraryPatientListInput as PatientListInput,
} from '@crdp/core';
import { answerItems, type Form } from '@crdp/crf';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { patientIdentityColumns } from '../clinical/identity-columns.js';
import { sameJson } from '../crf/evaluate.js';
import { saveRecord } from '../crf/records.js';
import { ownedKeys } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { crfFormVersions, crfRecords, diseaseLibraryPatients, patients } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { type Actor, invalid, libraryOf, publishedForm } from './libraries.js';
import { wordReasons } from './reasons.js';

/**
 * The patients of a library: the list call of spec 000/001 (`Patient_name`, `Filing_date`),
 * one patient's record form, saving it (a changed item becomes manual, so no fill overwrites
 * it) and marking an item as not obtainable.
 */
const esc = (s: string) => s.replace(/[%_\\]/g, '\\$&');

export async function patientList(
  db: Tx,
  appId: number,
  input: PatientListInput,
  locale: Locale = 'zh-CN',
): Promise<z.input<typeof libraryPatientPage>> {
  const lib = await libraryOf(db, appId, input.library_id);
  const f = input.filters;
  const parts: SQL[] = [sql`lp.library_id = ${lib.id}`, sql`p.app_id = ${appId}`];
  if (f.name) parts.push(sql`p.name ilike ${`%${esc(f.name)}%`}`);
  if (f.mrn) parts.push(sql`p.mrn ilike ${`%${esc(f.mrn)}%`}`);
  if (f.gender !== undefined) parts.push(sql`p.gender = ${f.gender}`);
  if (f.filingFrom) parts.push(sql`lp.filing_date >= ${f.filingFrom}::date`);
  if (f.filingTo) parts.push(sql`lp.filing_date <= ${f.filingTo}::date`);
  const where = sql.join(parts, sql` and `);
  const ruleKeys = Object.keys(lib.sourceRules as Record<string, string>);
  const [total] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from disease_library_patients lp join patients p on p.id = lp.patient_id where ${where}`,
    ),
  );
  const rows = rowsOf<{
    id: string;
    patient_id: string;
    record_id: string | null;
    name: string;
    mrn: string;
    gender: number;
    birth_date: string | null;
    filing_date: string;
    reason: string[];
    answers: Record<string, unknown> | null;
    first_visit: string | null;
  }>(
    await db.execute(sql`select lp.id, lp.patient_id, lp.record_id, p.name, p.mrn, p.gender, to_char(p.birth_date, 'YYYY-MM-DD') as birth_date,
        to_char(lp.filing_date, 'YYYY-MM-DD') as filing_date, lp.reason, r.answers,
        (select to_char(min(v.admit_at), 'YYYY-MM-DD') from visits v where v.patient_id = p.id and v.app_id = p.app_id) as first_visit
      from disease_library_patients lp join patients p on p.id = lp.patient_id
      left join crf_records r on r.id = lp.record_id
      where ${where} order by lp.filing_date, lp.id limit ${input.size} offset ${(input.page - 1) * input.size}`),
  );
  const reasons = await wordReasons(
    db,
    appId,
    rows.map((r) => r.reason),
    locale,
  );
  return {
    total: Number(total?.n ?? 0),
    page: input.page,
    size: input.size,
    items: rows.map((r, i): LibraryPatientEntry => {
      const answers = r.answers ?? {};
      const filled = ruleKeys.filter(
        (k) => answers[k] !== undefined && answers[k] !== null && answers[k] !== '',
      ).length;
      return {
        id: Number(r.id),
        patient_id: Number(r.patient_id),
        record_id: r.record_id === null ? null : Number(r.record_id),
        Patient_name: r.name,
        Filing_date: r.filing_date,
        mrn: r.mrn,
        gender: Number(r.gender),
        birth_date: r.birth_date,
        first_visit: r.first_visit,
        reason: reasons[i]!,
        completeness: ruleKeys.length ? filled / ruleKeys.length : null,
      };
    }),
  };
}

async function memberOf(db: Tx, libraryId: number, patientId: number) {
  const [m] = await db
    .select()
    .from(diseaseLibraryPatients)
    .where(
      and(eq(diseaseLibraryPatients.libraryId, libraryId), eq(diseaseLibraryPatients.patientId, patientId)),
    );
  if (!m) throw notFound('disease_library_patient');
  return m;
}

/** One patient of a library with its record and the form to show it in. */
export async function libraryPatient(
  db: Tx,
  appId: number,
  libraryId: number,
  patientId: number,
  locale: Locale = 'zh-CN',
): Promise<z.input<typeof libraryPatientView>> {
  const lib = await libraryOf(db, appId, libraryId);
  const m = await memberOf(db, lib.id, patientId);
  const [p] = await db
    .select(patientIdentityColumns)
    .from(patients)
    .where(and(eq(patients.id, patientId), eq(patients.appId, appId)));
  if (!p) throw notFound('disease_library_patient');
  const [rec] = m.recordId ? await db.select().from(crfRecords).where(eq(crfRecords.id, m.recordId)) : [];
  const [v] = rec ? await db.select().from(crfFormVersions).where(eq(crfFormVersions.id, rec.versionId)) : [];
  const [fv] = rowsOf<{ d: string | null }>(
    await db.execute(
      sql`select to_char(min(admit_at), 'YYYY-MM-DD') as d from visits where patient_id = ${patientId} and app_id = ${appId}`,
    ),
  );
  return {
    libraryId: lib.id,
    libraryName: lib.name,
    patient: p,
    firstVisit: fv?.d ?? null,
    filingDate: m.filingDate,
    reason: (await wordReasons(db, appId, [m.reason as string[]], locale))[0]!,
    itemMethods: m.itemMethods as Record<string, string>,
    unobtainable: m.unobtainable as Record<string, string>,
    sourceRules: lib.sourceRules as Record<string, string>,
    record: rec
      ? {
          id: rec.id,
          status: rec.status,
          revision: rec.revision,
          answers: rec.answers as Record<string, unknown>,
          methods: rec.methods as Record<string, string>,
          updatedAt: rec.updatedAt,
        }
      : null,
    definition: (v?.definition as Form | undefined) ?? null,
  };
}

/**
 * Saves a library patient's record through the CRF service (engine validation, field-level
 * history, reasons once submitted); every item whose value changed becomes manual.
 */
export async function saveLibraryRecord(
  actor: Actor,
  libraryId: number,
  patientId: number,
  input: { answers: Record<string, unknown>; revision: number; submit: boolean; reason?: string | undefined },
): Promise<LibraryRecordSaved> {
  const { db } = actor;
  const lib = await libraryOf(db, actor.appId, libraryId);
  const m = await memberOf(db, lib.id, patientId);
  if (!m.recordId)
    throw invalid(
      'params.patientId',
      '该患者还没有记录，请重新推送',
      'the patient has no record yet; push again',
    );
  const [rec] = await db.select().from(crfRecords).where(eq(crfRecords.id, m.recordId));
  const old = (rec?.answers ?? {}) as Record<string, unknown>;
  const saved = await saveRecord(db, { ...actor, free: null }, m.recordId, {
    answers: input.answers,
    methods: (rec?.methods ?? {}) as Record<string, string>,
    submit: input.submit,
    revision: input.revision,
    reasons: {},
    reason: input.reason,
  });
  const changed = [...new Set([...Object.keys(old), ...Object.keys(input.answers)])].filter(
    (k) => !sameJson(old[k], input.answers[k]),
  );
  if (changed.length) {
    await db.transaction(async (tx) => {
      const methods = { ...(m.itemMethods as Record<string, string>) };
      for (const k of changed) methods[k] = 'manual';
      await tx
        .update(diseaseLibraryPatients)
        .set({ itemMethods: methods })
        .where(eq(diseaseLibraryPatients.id, m.id));
      await audit(tx, actor, {
        action: 'disease_library.manual',
        entity: 'disease_library_patient',
        entityId: m.id,
        before: m.itemMethods,
        after: methods,
      });
    });
  }
  return {
    record: { id: saved.record.id, revision: saved.record.revision, status: saved.record.status },
    manual: changed,
  };
}

/** Marks an item of a patient as not obtainable (with a reason), or clears the mark. */
export async function markUnobtainable(
  actor: Actor,
  libraryId: number,
  patientId: number,
  input: { itemKey: string; unobtainable: boolean; reason: string },
): Promise<{ unobtainable: Record<string, string> }> {
  const { db } = actor;
  const lib = await libraryOf(db, actor.appId, libraryId);
  const m = await memberOf(db, lib.id, patientId);
  if (!(input.itemKey in (lib.sourceRules as Record<string, string>))) {
    const { definition } = await publishedForm(db, actor.appId, lib.crfFormId);
    const keys = new Set(answerItems(definition).map((x) => x.item.key));
    if (!keys.has(input.itemKey))
      throw invalid('body.itemKey', '表单中没有这个键的题目', 'no item of the form has this key');
  }
  if (input.unobtainable && !input.reason)
    throw invalid('body.reason', '请说明无法获取该值的原因', 'say why the value cannot be obtained');
  const before = m.unobtainable as Record<string, string>;
  const after = { ...before };
  if (input.unobtainable) after[input.itemKey] = input.reason;
  else delete after[input.itemKey];
  return db.transaction(async (tx) => {
    await tx
      .update(diseaseLibraryPatients)
      .set({ unobtainable: after })
      .where(eq(diseaseLibraryPatients.id, m.id));
    await audit(tx, actor, {
      action: input.unobtainable ? 'disease_library.unobtainable' : 'disease_library.obtainable',
      entity: 'disease_library_patient',
      entityId: m.id,
      before,
      after,
      reason: input.reason || null,
    });
    return { unobtainable: after };
  });
}

export const ownedLibraryPatientIds = ownedKeys(
  diseaseLibraryPatients,
  { id: diseaseLibraryPatients.libraryId, patientId: diseaseLibraryPatients.patientId },
  { limit: 5 },
);
