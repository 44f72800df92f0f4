import type { RecordInput, RecordTable } from '@crdp/core';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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
import { searchTextOf } from './bigrams.js';

/**
 * The input shape of every CDR row lives in @crdp/core (contracts/cdr-input.ts), shared by
 * manual entry, CSV, FHIR imports and collection here and by the entry forms of the web.
 */
export {
  cdrText as str,
  nationalIdInput,
  type PatientInput,
  patientInput,
  RECORD_TABLES,
  type RecordInput,
  type RecordTable,
  recordInputs,
  VISIT_KINDS,
} from '@crdp/core';

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
