import {
  type ConceptDetail,
  type ConceptDetailFull,
  type ConceptMapping,
  type ConceptUsage,
  OMOP_CONCEPT_URI,
  type TerminologyDomain,
} from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import { CODING_SOURCES } from '../coding/kinds.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { omopMappings } from '../db/schema/index.js';
import { conceptDetail } from './concepts.js';

/** The OMOP map kind whose source codes are codes of a system (as `ConceptMap/$translate`). */
const OMOP_KIND_OF: Record<string, 'condition' | 'measurement' | 'drug'> = {
  ICD10: 'condition',
  LOINC: 'measurement',
  DRUG: 'drug',
};

/** The CDR table (its record-table key, as the cdrTable labels) each domain's codes are recorded in. */
const TABLE_OF: Record<TerminologyDomain, string> = {
  disease: 'diagnoses',
  surgery: 'operations',
  lab: 'labResults',
  drug: 'orders',
};

/** `like` pattern of the codes under a code (the code itself and longer codes starting with it). */
const below = (code: string) => `${code.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A local code's nearest standard ancestor; a standard code's OMOP concept in this hospital's maps. */
async function mappingsOf(db: Db, appId: number, d: ConceptDetail): Promise<ConceptMapping[]> {
  const out: ConceptMapping[] = [];
  if (d.local) {
    const standard = [...d.ancestors].reverse().find((a) => !a.local);
    if (standard)
      out.push({
        relation: 'wider',
        system: d.systemKey,
        systemUri: d.system.uri,
        code: standard.code,
        display: standard.displayZh,
      });
  }
  const kind = OMOP_KIND_OF[d.systemKey];
  if (kind) {
    const code = kind === 'condition' ? d.code.toUpperCase() : d.code;
    const rows = await db
      .select({ conceptId: omopMappings.conceptId, conceptName: omopMappings.conceptName })
      .from(omopMappings)
      .where(
        and(eq(omopMappings.appId, appId), eq(omopMappings.kind, kind), eq(omopMappings.sourceCode, code)),
      );
    for (const m of rows)
      out.push({
        relation: 'equivalent',
        system: 'OMOP',
        systemUri: OMOP_CONCEPT_URI,
        code: String(m.conceptId),
        display: m.conceptName,
      });
  }
  return out;
}

/**
 * The code's use in the app's data, from its domain's read-time coded view (migration 0033): the
 * view keeps each row's source code beside the code its local term is mapped to, so one pass
 * counts both, exactly and with the codes under it.
 */
async function usageOf(db: Db, appId: number, d: ConceptDetail): Promise<ConceptUsage> {
  const domain = d.system.domain as TerminologyDomain;
  const src = CODING_SOURCES[domain];
  const code = d.code;
  const like = below(code);
  const exactSource = sql`upper(v.source_code) = upper(${code})`;
  const belowSource = sql`upper(v.source_code) like upper(${like})`;
  const exactCoded = sql`(v.system_key = ${d.systemKey} and v.code = ${code})`;
  const belowCoded = sql`(v.system_key = ${d.systemKey} and v.code like ${like})`;
  const [n] = rowsOf<Record<string, number>>(
    await db.execute(sql`select
        count(*) filter (where ${exactSource})::int as recorded_rows,
        count(distinct v.patient_id) filter (where ${exactSource})::int as recorded_patients,
        count(*) filter (where ${belowSource})::int as recorded_rows_below,
        count(distinct v.patient_id) filter (where ${belowSource})::int as recorded_patients_below,
        count(*) filter (where ${exactCoded})::int as coded_rows,
        count(distinct v.patient_id) filter (where ${exactCoded})::int as coded_patients,
        count(*) filter (where ${belowCoded})::int as coded_rows_below,
        count(distinct v.patient_id) filter (where ${belowCoded})::int as coded_patients_below
      from ${src.view} v
      where v.app_id = ${appId} and (${belowSource} or ${belowCoded})`),
  );
  const terms = rowsOf<{ term: string; rows: number; total: number }>(
    await db.execute(sql`select m.term, count(v.id)::int as rows, count(*) over ()::int as total
      from coding_mappings m left join ${src.view} v on v.mapping_id = m.id and v.app_id = ${appId}
      where m.app_id = ${appId} and m.kind = ${domain} and m.system_key = ${d.systemKey} and m.code = ${code}
      group by m.term order by rows desc, m.term limit 20`),
  );
  return {
    table: TABLE_OF[domain],
    recordedRows: n?.recorded_rows ?? 0,
    recordedPatients: n?.recorded_patients ?? 0,
    recordedRowsBelow: n?.recorded_rows_below ?? 0,
    recordedPatientsBelow: n?.recorded_patients_below ?? 0,
    codedRows: n?.coded_rows ?? 0,
    codedPatients: n?.coded_patients ?? 0,
    codedRowsBelow: n?.coded_rows_below ?? 0,
    codedPatientsBelow: n?.coded_patients_below ?? 0,
    localTerms: terms.map((t) => ({ term: t.term, rows: t.rows })),
    localTermCount: terms[0]?.total ?? 0,
  };
}

/** The browser's concept: hierarchy and synonyms, mappings to other systems, use in this hospital's data. */
export async function conceptDetailFull(
  db: Db,
  appId: number,
  systemKey: string,
  code: string,
): Promise<ConceptDetailFull> {
  const d = await conceptDetail(db, appId, systemKey, code);
  const [mappings, usage] = await Promise.all([mappingsOf(db, appId, d), usageOf(db, appId, d)]);
  return { ...d, mappings, usage };
}
