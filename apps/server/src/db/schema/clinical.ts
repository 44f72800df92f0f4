import { CDR_IMPORT_FORMATS, CDR_IMPORT_STATUSES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, at, madeBy, timestamps } from './columns.js';
import { appScope, oneOf } from './policies.js';

/**
 * The clinical data repository (CDR). Every table carries `app_id`; every row also keeps where it
 * came from (`source`: fhir, csv, manual, synthetic) and the id it had there, so an import run
 * twice updates instead of duplicating. Child rows point at their patient; deleting a patient
 * deletes its rows.
 */
const id = () => bigserial('id', { mode: 'number' }).primaryKey();
const patientId = () =>
  bigint('patient_id', { mode: 'number' })
    .notNull()
    .references(() => patients.id, { onDelete: 'cascade' });
const visitId = () => bigint('visit_id', { mode: 'number' });
const source = () => text('source').notNull().default('manual');
const sourceId = () => text('source_id').notNull();

export const patients = pgTable(
  'patients',
  {
    id: id(),
    appId: appId(),
    /** Medical record number (病案号), unique per app. */
    mrn: text('mrn').notNull(),
    name: text('name').notNull(),
    /** Gender code table of spec 001: 0 unknown, 1 male, 2 female, 3 other. */
    gender: smallint('gender').notNull().default(0),
    birthDate: date('birth_date', { mode: 'string' }),
    /** Checked with checkNationalId before it is stored; '' when unknown. */
    nationalId: text('national_id').notNull().default(''),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    /** Emergency contacts: [{ name, relation, phone }]. */
    contacts: jsonb('contacts').notNull().default([]),
    source: source(),
    sourceId: sourceId(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('patients_app_source').on(t.appId, t.source, t.sourceId),
    uniqueIndex('patients_app_mrn').on(t.appId, t.mrn),
    index('patients_app_name').on(t.appId, t.name),
    index('patients_app_national_id').on(t.appId, t.nationalId),
    appScope(),
  ],
);

export const visits = pgTable(
  'visits',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    /** outpatient, inpatient or emergency. */
    kind: text('kind').notNull(),
    department: text('department').notNull().default(''),
    /** The doctor in charge of the visit (主治/接诊医师), as the source names them; '' unknown. */
    doctor: text('doctor').notNull().default(''),
    admitAt: at('admit_at').notNull(),
    dischargeAt: at('discharge_at'),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('visits_app_source').on(t.appId, t.source, t.sourceId),
    index('visits_patient').on(t.patientId, t.admitAt),
    appScope(),
  ],
);

export const diagnoses = pgTable(
  'diagnoses',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    icd10: text('icd10').notNull().default(''),
    name: text('name').notNull(),
    /** Every coding the source gave [{ system, code, display }] (FHIR imports); [] otherwise. */
    codings: jsonb('codings').notNull().default([]),
    /** main, secondary, admission, discharge, outpatient. */
    kind: text('kind').notNull().default('secondary'),
    diagnosedAt: at('diagnosed_at').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('diagnoses_app_source').on(t.appId, t.source, t.sourceId),
    index('diagnoses_patient').on(t.patientId, t.diagnosedAt),
    index('diagnoses_app_icd10').on(t.appId, t.icd10),
    appScope(),
  ],
);

export const allergies = pgTable(
  'allergies',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    substance: text('substance').notNull(),
    reaction: text('reaction').notNull().default(''),
    severity: text('severity').notNull().default(''),
    recordedAt: at('recorded_at').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('allergies_app_source').on(t.appId, t.source, t.sourceId),
    index('allergies_patient').on(t.patientId),
    appScope(),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    /** drug or other (nursing, diet, examination...). */
    category: text('category').notNull(),
    code: text('code').notNull().default(''),
    name: text('name').notNull(),
    dose: text('dose').notNull().default(''),
    /** Every coding the source gave [{ system, code, display }] (FHIR imports); [] otherwise. */
    codings: jsonb('codings').notNull().default([]),
    doseUnit: text('dose_unit').notNull().default(''),
    route: text('route').notNull().default(''),
    frequency: text('frequency').notNull().default(''),
    startAt: at('start_at').notNull(),
    stopAt: at('stop_at'),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('orders_app_source').on(t.appId, t.source, t.sourceId),
    index('orders_patient').on(t.patientId, t.startAt),
    appScope(),
  ],
);

export const labResults = pgTable(
  'lab_results',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    itemCode: text('item_code').notNull(),
    itemName: text('item_name').notNull(),
    /** Every coding the source gave [{ system, code, display }] (FHIR imports); [] otherwise. */
    codings: jsonb('codings').notNull().default([]),
    valueNum: doublePrecision('value_num'),
    valueText: text('value_text').notNull().default(''),
    unit: text('unit').notNull().default(''),
    refLow: doublePrecision('ref_low'),
    refHigh: doublePrecision('ref_high'),
    /** H high, L low, N normal, A abnormal text, '' unknown. */
    abnormalFlag: text('abnormal_flag').notNull().default(''),
    collectedAt: at('collected_at').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('lab_results_app_source').on(t.appId, t.source, t.sourceId),
    index('lab_results_patient').on(t.patientId, t.itemCode, t.collectedAt),
    index('lab_results_app_item_value').on(t.appId, t.itemCode, t.valueNum),
    appScope(),
  ],
);

export const examReports = pgTable(
  'exam_reports',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    modality: text('modality').notNull(),
    bodyPart: text('body_part').notNull().default(''),
    findings: text('findings').notNull().default(''),
    conclusion: text('conclusion').notNull().default(''),
    examAt: at('exam_at').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('exam_reports_app_source').on(t.appId, t.source, t.sourceId),
    index('exam_reports_patient').on(t.patientId, t.examAt),
    appScope(),
  ],
);

export const operations = pgTable(
  'operations',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    code: text('code').notNull().default(''),
    name: text('name').notNull(),
    /** Every coding the source gave [{ system, code, display }] (FHIR imports); [] otherwise. */
    codings: jsonb('codings').notNull().default([]),
    operatedAt: at('operated_at').notNull(),
    surgeon: text('surgeon').notNull().default(''),
    anaesthesia: text('anaesthesia').notNull().default(''),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('operations_app_source').on(t.appId, t.source, t.sourceId),
    index('operations_patient').on(t.patientId, t.operatedAt),
    appScope(),
  ],
);

export const physicalExams = pgTable(
  'physical_exams',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    item: text('item').notNull(),
    value: text('value').notNull(),
    unit: text('unit').notNull().default(''),
    recordedAt: at('recorded_at').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('physical_exams_app_source').on(t.appId, t.source, t.sourceId),
    index('physical_exams_patient').on(t.patientId, t.recordedAt),
    appScope(),
  ],
);

/**
 * Bedside vital signs (spec 001 section 3, vital-sign chart point): `item_name` is 脉搏, 体温,
 * 血氧饱和度, 呼吸, 血压... or 事件 for events whose `value` is the event text (外出请假, 不升,
 * 开呼吸机, 关呼吸机...).
 */
export const vitalSigns = pgTable(
  'vital_signs',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    itemName: text('item_name').notNull(),
    value: text('value').notNull(),
    itemUnit: text('item_unit').notNull().default(''),
    recordDt: at('record_dt').notNull(),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('vital_signs_app_source').on(t.appId, t.source, t.sourceId),
    index('vital_signs_patient').on(t.patientId, t.recordDt),
    appScope(),
  ],
);

/**
 * Clinical documents as text. `search_text` holds the character bigrams of title and body
 * (see clinical/bigrams.ts): PostgreSQL's parsers do not split Chinese, so the GIN index over
 * `to_tsvector('simple', search_text)` finds any two-character term.
 */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    appId: appId(),
    patientId: patientId(),
    visitId: visitId(),
    /** admission, progress, discharge, other. */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The doctor who wrote the document, as the source names them; '' unknown. */
    author: text('author').notNull().default(''),
    writtenAt: at('written_at').notNull(),
    searchText: text('search_text').notNull().default(''),
    source: source(),
    sourceId: sourceId(),
  },
  (t) => [
    uniqueIndex('documents_app_source').on(t.appId, t.source, t.sourceId),
    index('documents_patient').on(t.patientId, t.writtenAt),
    index('documents_search').using('gin', sql`to_tsvector('simple'::regconfig, ${t.searchText})`),
    appScope(),
  ],
);

/** One import (data-resource-maintenance): what came in, how it went, the rows refused and why. */
export const importRecords = pgTable(
  'import_records',
  {
    id: id(),
    appId: appId(),
    jobId: bigint('job_id', { mode: 'number' }),
    /** fhir or csv. */
    format: text('format').notNull(),
    fileName: text('file_name').notNull().default(''),
    /** What the job reads: the FHIR bundle, or the CSV text with its column mapping. */
    payload: jsonb('payload'),
    status: text('status').notNull().default('queued'),
    total: integer('total').notNull().default(0),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Rows written per table: { patients: 1, visits: 12, ... }. */
    counts: jsonb('counts').notNull().default({}),
    /** Refused rows: [{ row, field, message }], at most 1,000 kept. */
    errors: jsonb('errors').notNull().default([]),
    ...madeBy(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('import_records_app').on(t.appId, t.id),
    oneOf('import_records_status', t.status, CDR_IMPORT_STATUSES),
    oneOf('import_records_format', t.format, CDR_IMPORT_FORMATS),
    appScope(),
  ],
);
