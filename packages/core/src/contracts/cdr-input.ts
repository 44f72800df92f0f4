import { z } from 'zod';
import { refuseControlChars } from '../helpers/control-chars.js';
import { isRealIsoDate } from '../helpers/iso-date.js';
import { checkNationalId } from '../helpers/national-id.js';
import { formatMessage, type MessageKey } from '../messages.js';
import { CLEANING_DOCUMENT_KINDS } from './cleaning.js';

/** A refinement's message by key: English on the wire, Chinese by the server's wording layer. */
const keyed = (key: MessageKey) => ({ message: formatMessage(key, 'en-US'), params: { messageKey: key } });

/**
 * The input shape of every CDR row (server: apps/server/src/clinical/records.ts), shared by manual entry, CSV and FHIR imports: one set of
 * rules, whatever the door the data came in by.
 */
/** The date part exists in the calendar and the clock reads at most 23:59:59. */
function isRealDateTime(s: string) {
  if (!isRealIsoDate(s.slice(0, 10))) return false;
  const clock = /^.{10}[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(s);
  if (clock && (Number(clock[1]) > 23 || Number(clock[2]) > 59 || Number(clock[3] ?? 0) > 59)) return false;
  return !Number.isNaN(Date.parse(s.replace(' ', 'T')));
}

const dateTime = z
  .string()
  .max(40)
  .trim()
  .min(1)
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s),
    keyed('cdr.dateTimeFormat'),
  )
  // Date.parse rolls 2024-02-30 over to 1 March: the calendar date and the clock are checked.
  .refine((s) => isRealDateTime(s), keyed('cdr.dateTimeNotReal'));
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(s)) && new Date(s).toISOString().startsWith(s),
    keyed('cdr.dateNotReal'),
  );
/**
 * Text of at most `max` UTF-16 units (zod counts code points, so astral characters would pass
 * at twice the length), trimmed; `min` counts what remains. No control characters or lone
 * surrogates; texts of 500 units or more are free text, where tab and line breaks are allowed.
 */
export const cdrText = (max: number, min = 0) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, { message: `must be at most ${max} characters` })
    .superRefine(refuseControlChars({ multiline: max >= 500 }))
    .refine((s) => s.trim().length >= min, keyed('text.blank'))
    .transform((s) => s.trim());
const text = (max: number) => cdrText(max);
const name = (max: number) => cdrText(max, 1);

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
/** What a patient registration form sends (before the server trims and checks it). */
export type PatientInputBody = z.input<typeof patientInput>;

/**
 * One coding of a coded field as its source wrote it (a FHIR CodeableConcept's `coding`): the
 * code system's URI, the code and its display. Diagnoses, orders, lab results and operations keep
 * every coding they came with (SNOMED CT, ICD-10, RxNorm, LOINC...), not only the one CRDP reads.
 */
export const cdrCoding = z.object({ system: text(200), code: name(100), display: text(500) });
export type CdrCoding = z.infer<typeof cdrCoding>;
export const cdrCodings = z.array(cdrCoding).max(20);
/** The CDR tables whose rows keep their codings. */
export const CODED_TABLES = ['diagnoses', 'orders', 'labResults', 'operations'] as const;

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
      ...keyed('cdr.labNeedsValue'),
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
