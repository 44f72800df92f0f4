import { CLEANING_DOCUMENT_KINDS, checkNationalId, refuseControlChars } from '@crdp/core';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import {
  allergies,
  diagnoses,
  documents,
  examReports,
  labResults,
  operations,
  orders,
  patients,
  physicalExams,
  visits,
  vitalSigns,
} from '../db/schema/index.js';
import { schemaMessage } from '../http/validation-messages.js';
import { searchTextOf } from './bigrams.js';

/**
 * The input shape of every CDR row, shared by manual entry, CSV and FHIR imports: one set of
 * rules, whatever the door the data came in by.
 */
const dateTime = z
  .string()
  .max(40)
  .trim()
  .min(1)
  .refine((s) => /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s), {
    message: schemaMessage(
      '应为日期时间，例如 2024-03-01T08:00:00+08:00',
      'expected a date-time such as 2024-03-01T08:00:00+08:00',
    ),
  })
  .refine((s) => !Number.isNaN(Date.parse(s.replace(' ', 'T'))), {
    message: schemaMessage('不是真实存在的日期时间', 'not a real date-time'),
  });
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(s)) && new Date(s).toISOString().startsWith(s), {
    message: schemaMessage('不是真实存在的日期', 'not a real date'),
  });
/**
 * Text of at most `max` UTF-16 units (zod counts code points, so astral characters would pass
 * at twice the length), trimmed; `min` counts what remains. No control characters or lone
 * surrogates; texts of 500 units or more are free text, where tab and line breaks are allowed.
 */
export const str = (max: number, min = 0) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, { message: `must be at most ${max} characters` })
    .superRefine(refuseControlChars({ multiline: max >= 500 }))
    .refine((s) => s.trim().length >= min, {
      message: min ? schemaMessage('不能为空', 'must not be blank') : 'invalid',
    })
    .transform((s) => s.trim());
const text = (max: number) => str(max);
const name = (max: number) => str(max, 1);

export const nationalIdInput = text(18).superRefine((v, ctx) => {
  if (v === '') return;
  const r = checkNationalId(v);
  if (!r.pass) ctx.addIssue({ code: 'custom', message: r.tip });
});

export const patientInput = z.object({
  mrn: name(40),
  name: name(100),
  gender: z.number().int().min(0).max(3),
  birthDate: isoDate.optional(),
  nationalId: nationalIdInput.optional(),
  phone: text(30).optional(),
  address: text(200).optional(),
  contacts: z
    .array(z.object({ name: name(50), relation: text(20).optional(), phone: text(30).optional() }))
    .max(10)
    .optional(),
});
export type PatientInput = z.infer<typeof patientInput>;

export const VISIT_KINDS = ['outpatient', 'inpatient', 'emergency'] as const;
const visitRef = z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional();

export const recordInputs = {
  visits: z.object({
    kind: z.enum(VISIT_KINDS),
    department: text(60).optional(),
    /** The doctor in charge, as the source names them. */
    doctor: text(50).optional(),
    admitAt: dateTime,
    dischargeAt: dateTime.optional(),
  }),
  diagnoses: z.object({
    visitId: visitRef,
    icd10: text(20).optional(),
    name: name(200),
    kind: z.enum(['main', 'secondary', 'admission', 'discharge', 'outpatient']).optional(),
    diagnosedAt: dateTime,
  }),
  allergies: z.object({
    substance: name(200),
    reaction: text(200).optional(),
    severity: text(20).optional(),
    recordedAt: dateTime,
  }),
  orders: z.object({
    visitId: visitRef,
    category: z.enum(['drug', 'other']),
    code: text(40).optional(),
    name: name(200),
    dose: text(40).optional(),
    doseUnit: text(20).optional(),
    route: text(40).optional(),
    frequency: text(40).optional(),
    startAt: dateTime,
    stopAt: dateTime.optional(),
  }),
  labResults: z
    .object({
      visitId: visitRef,
      itemCode: name(40),
      itemName: name(100),
      valueNum: z.number().finite().optional(),
      valueText: text(200).optional(),
      unit: text(30).optional(),
      refLow: z.number().finite().optional(),
      refHigh: z.number().finite().optional(),
      abnormalFlag: z.enum(['H', 'L', 'N', 'A', '']).optional(),
      collectedAt: dateTime,
    })
    .refine((r) => r.valueNum !== undefined || (r.valueText ?? '') !== '', {
      message: schemaMessage('结果需要 valueNum 或 valueText', 'a result needs valueNum or valueText'),
      path: ['valueNum'],
    }),
  examReports: z.object({
    visitId: visitRef,
    modality: name(40),
    bodyPart: text(60).optional(),
    findings: text(20_000).optional(),
    conclusion: text(5_000).optional(),
    examAt: dateTime,
  }),
  operations: z.object({
    visitId: visitRef,
    code: text(40).optional(),
    name: name(200),
    operatedAt: dateTime,
    surgeon: text(50).optional(),
    anaesthesia: text(50).optional(),
  }),
  physicalExams: z.object({
    visitId: visitRef,
    item: name(60),
    value: name(100),
    unit: text(20).optional(),
    recordedAt: dateTime,
  }),
  vitalSigns: z.object({
    visitId: visitRef,
    itemName: name(40),
    value: name(100),
    itemUnit: text(20).optional(),
    recordDt: dateTime,
  }),
  documents: z.object({
    visitId: visitRef,
    kind: z.enum(CLEANING_DOCUMENT_KINDS),
    title: name(200),
    body: name(200_000),
    /** The doctor who wrote it, as the source names them. */
    author: text(50).optional(),
    writtenAt: dateTime,
  }),
} as const;

export type RecordTable = keyof typeof recordInputs;
export const RECORD_TABLES = Object.keys(recordInputs) as RecordTable[];
export type RecordInput<T extends RecordTable> = z.infer<(typeof recordInputs)[T]>;

/** Each CDR table, with the column that dates its rows (for filters, timelines and month counts). */
export const CDR_TABLES = {
  patients: { table: patients, time: patients.createdAt, label: { 'zh-CN': '患者', 'en-US': 'Patients' } },
  visits: { table: visits, time: visits.admitAt, label: { 'zh-CN': '就诊', 'en-US': 'Visits' } },
  diagnoses: {
    table: diagnoses,
    time: diagnoses.diagnosedAt,
    label: { 'zh-CN': '诊断', 'en-US': 'Diagnoses' },
  },
  allergies: {
    table: allergies,
    time: allergies.recordedAt,
    label: { 'zh-CN': '过敏', 'en-US': 'Allergies' },
  },
  orders: { table: orders, time: orders.startAt, label: { 'zh-CN': '医嘱', 'en-US': 'Orders' } },
  labResults: {
    table: labResults,
    time: labResults.collectedAt,
    label: { 'zh-CN': '检验结果', 'en-US': 'Lab results' },
  },
  examReports: {
    table: examReports,
    time: examReports.examAt,
    label: { 'zh-CN': '检查报告', 'en-US': 'Exam reports' },
  },
  operations: {
    table: operations,
    time: operations.operatedAt,
    label: { 'zh-CN': '手术', 'en-US': 'Operations' },
  },
  physicalExams: {
    table: physicalExams,
    time: physicalExams.recordedAt,
    label: { 'zh-CN': '体格检查', 'en-US': 'Physical examinations' },
  },
  vitalSigns: {
    table: vitalSigns,
    time: vitalSigns.recordDt,
    label: { 'zh-CN': '生命体征', 'en-US': 'Vital signs' },
  },
  documents: {
    table: documents,
    time: documents.writtenAt,
    label: { 'zh-CN': '病历文书', 'en-US': 'Documents' },
  },
} as const;
export type CdrTable = keyof typeof CDR_TABLES;

const toDate = (s: string | undefined) => (s ? new Date(s.includes('T') ? s : s.replace(' ', 'T')) : null);

/** H or L against the reference range; N inside it; '' when there is nothing to compare. */
export function abnormalFlagOf(value: number | undefined, low: number | undefined, high: number | undefined) {
  if (value === undefined) return '';
  if (high !== undefined && value > high) return 'H';
  if (low !== undefined && value < low) return 'L';
  return low !== undefined || high !== undefined ? 'N' : '';
}

interface RowKeys {
  appId: number;
  patientId: number;
  source: string;
  sourceId: string;
}

/** A validated input as the row to write (dates parsed, defaults filled, bigrams made). */
export function rowOf<T extends RecordTable>(table: T, input: RecordInput<T>, keys: RowKeys) {
  const i = input as Record<string, unknown>;
  const base = { ...keys, visitId: (i.visitId as number | undefined) ?? null };
  switch (table) {
    case 'visits': {
      const v = input as RecordInput<'visits'>;
      return {
        ...keys,
        kind: v.kind,
        department: v.department ?? '',
        doctor: v.doctor ?? '',
        admitAt: toDate(v.admitAt)!,
        dischargeAt: toDate(v.dischargeAt),
      };
    }
    case 'diagnoses': {
      const v = input as RecordInput<'diagnoses'>;
      return {
        ...base,
        icd10: v.icd10 ?? '',
        name: v.name,
        kind: v.kind ?? 'secondary',
        diagnosedAt: toDate(v.diagnosedAt)!,
      };
    }
    case 'allergies': {
      const v = input as RecordInput<'allergies'>;
      return {
        ...keys,
        substance: v.substance,
        reaction: v.reaction ?? '',
        severity: v.severity ?? '',
        recordedAt: toDate(v.recordedAt)!,
      };
    }
    case 'orders': {
      const v = input as RecordInput<'orders'>;
      return {
        ...base,
        category: v.category,
        code: v.code ?? '',
        name: v.name,
        dose: v.dose ?? '',
        doseUnit: v.doseUnit ?? '',
        route: v.route ?? '',
        frequency: v.frequency ?? '',
        startAt: toDate(v.startAt)!,
        stopAt: toDate(v.stopAt),
      };
    }
    case 'labResults': {
      const v = input as RecordInput<'labResults'>;
      return {
        ...base,
        itemCode: v.itemCode,
        itemName: v.itemName,
        valueNum: v.valueNum ?? null,
        valueText: v.valueText ?? (v.valueNum !== undefined ? String(v.valueNum) : ''),
        unit: v.unit ?? '',
        refLow: v.refLow ?? null,
        refHigh: v.refHigh ?? null,
        abnormalFlag: v.abnormalFlag ?? abnormalFlagOf(v.valueNum, v.refLow, v.refHigh),
        collectedAt: toDate(v.collectedAt)!,
      };
    }
    case 'examReports': {
      const v = input as RecordInput<'examReports'>;
      return {
        ...base,
        modality: v.modality,
        bodyPart: v.bodyPart ?? '',
        findings: v.findings ?? '',
        conclusion: v.conclusion ?? '',
        examAt: toDate(v.examAt)!,
      };
    }
    case 'operations': {
      const v = input as RecordInput<'operations'>;
      return {
        ...base,
        code: v.code ?? '',
        name: v.name,
        operatedAt: toDate(v.operatedAt)!,
        surgeon: v.surgeon ?? '',
        anaesthesia: v.anaesthesia ?? '',
      };
    }
    case 'physicalExams': {
      const v = input as RecordInput<'physicalExams'>;
      return { ...base, item: v.item, value: v.value, unit: v.unit ?? '', recordedAt: toDate(v.recordedAt)! };
    }
    case 'vitalSigns': {
      const v = input as RecordInput<'vitalSigns'>;
      return {
        ...base,
        itemName: v.itemName,
        value: v.value,
        itemUnit: v.itemUnit ?? '',
        recordDt: toDate(v.recordDt)!,
      };
    }
    case 'documents': {
      const v = input as RecordInput<'documents'>;
      return {
        ...base,
        kind: v.kind,
        title: v.title,
        body: v.body,
        author: v.author ?? '',
        writtenAt: toDate(v.writtenAt)!,
        searchText: searchTextOf(v.title, v.body),
      };
    }
  }
  throw new Error(`unknown table ${String(table)}`);
}

const KEEP = new Set(['id', 'appId', 'source', 'sourceId', 'createdAt', 'patientId']);

/** `excluded.<column>` for every column an upsert may change. */
function updateSet(table: PgTable) {
  const set: Record<string, SQL> = {};
  for (const [key, col] of Object.entries(getTableColumns(table) as Record<string, PgColumn>)) {
    if (!KEEP.has(key)) set[key] = sql.raw(`excluded."${col.name}"`);
  }
  return set;
}

/**
 * Writes rows, updating those already there with the same (app, source, source id): an import
 * run twice changes nothing more. Returns the ids by source id.
 */
export async function upsertRows(
  tx: Tx,
  table: CdrTable,
  rows: Array<Record<string, unknown>>,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const t = CDR_TABLES[table].table as PgTable & {
    id: PgColumn;
    appId: PgColumn;
    source: PgColumn;
    sourceId: PgColumn;
  };
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const out = (await tx
      .insert(t)
      .values(chunk as never)
      .onConflictDoUpdate({ target: [t.appId, t.source, t.sourceId], set: updateSet(t) as never })
      .returning({ id: t.id, sourceId: t.sourceId })) as Array<{ id: number; sourceId: string }>;
    for (const r of out) ids.set(r.sourceId, Number(r.id));
  }
  return ids;
}
