import {
  CDM_TABLES,
  type CdmTable,
  OMOP_MAPPING_KINDS,
  OMOP_SOURCE_TABLES,
  type OmopMappingKind,
  type OmopSourceTable,
} from '@crdp/core';

/**
 * What CRDP needs of OMOP CDM v5.4 at run time, written as code: the columns (names and order of
 * the official DDL) of the CDM tables it emits, the vocabulary kinds of its source-to-concept
 * maps, the built-in concepts that need no vocabulary download, and the catalogue of rules
 * (which clinical table goes to which CDM table). The tests compare the columns with the
 * official DDL in fixtures/omop.
 */

export const CDM_VERSION = '5.4';

/** The CDM tables CRDP writes (in the order of the ZIP), the map kinds and the rule sources: the API contract's lists. */
export { CDM_TABLES, type CdmTable };
export const MAPPING_KINDS = OMOP_MAPPING_KINDS;
export type MappingKind = OmopMappingKind;
export const SOURCE_TABLES = OMOP_SOURCE_TABLES;
export type SourceTable = OmopSourceTable;

/** Column names of each emitted table, in the order of OMOPCDM_postgresql_5.4_ddl.sql. */
export const CDM_COLUMNS: Record<CdmTable, readonly string[]> = {
  person: [
    'person_id',
    'gender_concept_id',
    'year_of_birth',
    'month_of_birth',
    'day_of_birth',
    'birth_datetime',
    'race_concept_id',
    'ethnicity_concept_id',
    'location_id',
    'provider_id',
    'care_site_id',
    'person_source_value',
    'gender_source_value',
    'gender_source_concept_id',
    'race_source_value',
    'race_source_concept_id',
    'ethnicity_source_value',
    'ethnicity_source_concept_id',
  ],
  observation_period: [
    'observation_period_id',
    'person_id',
    'observation_period_start_date',
    'observation_period_end_date',
    'period_type_concept_id',
  ],
  visit_occurrence: [
    'visit_occurrence_id',
    'person_id',
    'visit_concept_id',
    'visit_start_date',
    'visit_start_datetime',
    'visit_end_date',
    'visit_end_datetime',
    'visit_type_concept_id',
    'provider_id',
    'care_site_id',
    'visit_source_value',
    'visit_source_concept_id',
    'admitted_from_concept_id',
    'admitted_from_source_value',
    'discharged_to_concept_id',
    'discharged_to_source_value',
    'preceding_visit_occurrence_id',
  ],
  condition_occurrence: [
    'condition_occurrence_id',
    'person_id',
    'condition_concept_id',
    'condition_start_date',
    'condition_start_datetime',
    'condition_end_date',
    'condition_end_datetime',
    'condition_type_concept_id',
    'condition_status_concept_id',
    'stop_reason',
    'provider_id',
    'visit_occurrence_id',
    'visit_detail_id',
    'condition_source_value',
    'condition_source_concept_id',
    'condition_status_source_value',
  ],
  drug_exposure: [
    'drug_exposure_id',
    'person_id',
    'drug_concept_id',
    'drug_exposure_start_date',
    'drug_exposure_start_datetime',
    'drug_exposure_end_date',
    'drug_exposure_end_datetime',
    'verbatim_end_date',
    'drug_type_concept_id',
    'stop_reason',
    'refills',
    'quantity',
    'days_supply',
    'sig',
    'route_concept_id',
    'lot_number',
    'provider_id',
    'visit_occurrence_id',
    'visit_detail_id',
    'drug_source_value',
    'drug_source_concept_id',
    'route_source_value',
    'dose_unit_source_value',
  ],
  measurement: [
    'measurement_id',
    'person_id',
    'measurement_concept_id',
    'measurement_date',
    'measurement_datetime',
    'measurement_time',
    'measurement_type_concept_id',
    'operator_concept_id',
    'value_as_number',
    'value_as_concept_id',
    'unit_concept_id',
    'range_low',
    'range_high',
    'provider_id',
    'visit_occurrence_id',
    'visit_detail_id',
    'measurement_source_value',
    'measurement_source_concept_id',
    'unit_source_value',
    'unit_source_concept_id',
    'value_source_value',
    'measurement_event_id',
    'meas_event_field_concept_id',
  ],
};

/** The vocabulary kinds of a source-to-concept map: what their source code is. */
export const KIND_LABELS: Record<MappingKind, { zh: string; en: string }> = {
  condition: { zh: '诊断（ICD-10 或 SNOMED CT 编码）', en: 'condition (ICD-10 or SNOMED CT code)' },
  measurement: { zh: '检验项目（项目编码）', en: 'measurement (lab item code)' },
  drug: { zh: '药品（药品编码）', en: 'drug (medication code)' },
  gender: { zh: '性别（0 未知，1 男，2 女，3 其他）', en: 'gender (0 unknown, 1 male, 2 female, 3 other)' },
  visit: {
    zh: '就诊类型（inpatient/outpatient/emergency）',
    en: 'visit kind (inpatient/outpatient/emergency)',
  },
  unit: { zh: '单位', en: 'unit' },
};

/** OMOP's "EHR" type concept: where every row CRDP exports comes from. */
export const TYPE_EHR = 32817;

/** Condition status concepts of the diagnosis kinds of CRDP (outpatient diagnoses have none). */
export const CONDITION_STATUS: Record<string, number> = {
  main: 32902, // Primary diagnosis
  secondary: 32908, // Secondary diagnosis
  admission: 32890, // Admission diagnosis
  discharge: 32896, // Discharge diagnosis
};

export interface BuiltinMapping {
  kind: MappingKind;
  sourceCode: string;
  conceptId: number;
  conceptName: string;
}

/** Maps every hospital gets without a vocabulary download; an app's own row of the same kind and code wins. */
export const BUILTIN_MAPPINGS: readonly BuiltinMapping[] = [
  { kind: 'gender', sourceCode: '1', conceptId: 8507, conceptName: 'MALE' },
  { kind: 'gender', sourceCode: '2', conceptId: 8532, conceptName: 'FEMALE' },
  { kind: 'visit', sourceCode: 'inpatient', conceptId: 9201, conceptName: 'Inpatient Visit' },
  { kind: 'visit', sourceCode: 'outpatient', conceptId: 9202, conceptName: 'Outpatient Visit' },
  { kind: 'visit', sourceCode: 'emergency', conceptId: 9203, conceptName: 'Emergency Room Visit' },
];

/** Source codes a kind accepts at all (gender and visit kinds are closed lists of CRDP). */
export const CLOSED_CODES: Partial<Record<MappingKind, readonly string[]>> = {
  gender: ['0', '1', '2', '3'],
  visit: ['inpatient', 'outpatient', 'emergency'],
};

/** A source code as it is stored and compared: trimmed; ICD-10 codes in capitals. */
export const normalizeCode = (kind: MappingKind, code: string) => {
  const c = code.trim();
  return kind === 'condition' ? c.toUpperCase() : c;
};

export interface RulePair {
  sourceTable: SourceTable;
  targetTable: CdmTable;
  name: { zh: string; en: string };
}

/** Every supported rule, each one built in: a rule per CDM table, so CDM ids are CRDP ids. */
export const RULE_CATALOGUE: readonly RulePair[] = [
  { sourceTable: 'patients', targetTable: 'person', name: { zh: '患者 → 人', en: 'Patients → person' } },
  {
    sourceTable: 'patients',
    targetTable: 'observation_period',
    name: { zh: '患者记录跨度 → 观察期', en: 'Span of a patient’s records → observation period' },
  },
  {
    sourceTable: 'visits',
    targetTable: 'visit_occurrence',
    name: { zh: '就诊 → 就诊事件', en: 'Visits → visit occurrence' },
  },
  {
    sourceTable: 'diagnoses',
    targetTable: 'condition_occurrence',
    name: { zh: '诊断 → 疾病事件', en: 'Diagnoses → condition occurrence' },
  },
  {
    sourceTable: 'orders',
    targetTable: 'drug_exposure',
    name: { zh: '药品医嘱 → 药物暴露', en: 'Drug orders → drug exposure' },
  },
  {
    sourceTable: 'lab_results',
    targetTable: 'measurement',
    name: { zh: '检验结果 → 测量', en: 'Lab results → measurement' },
  },
];

export const pairOf = (sourceTable: string, targetTable: string) =>
  RULE_CATALOGUE.find((p) => p.sourceTable === sourceTable && p.targetTable === targetTable);
