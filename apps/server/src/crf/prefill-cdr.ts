import type { RecordEntry } from '@crdp/crf';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { diagnoses, labResults, patients, physicalExams, vitalSigns } from '../db/schema/index.js';
import { invalid } from './actor.js';

/**
 * A patient's clinical data (CDR) as prefill entries (`placeEntries` of @crdp/crf places them in a
 * form's items by code, then by name, converting units): the patient's sex, birth date and age, the
 * latest value of each lab item, vital sign and physical examination item, and the diagnoses, each
 * as of the end of a day. Newest first, so when two entries fit one item equally the newer wins.
 * An entry's `section` is its CDR table (`patients`, `labResults`, ...: the cdrTable labels); its
 * `displayName` is the name the data gives (a lab item's), or the Chinese name of a patient field.
 */

const LOINC = 'http://loinc.org';
const DIAGNOSES_MAX = 50;

/** LOINC codes of the bedside vital signs and examination items by their Chinese names. */
const VITAL_LOINC: Record<string, string> = {
  体温: '8310-5',
  脉搏: '8867-4',
  心率: '8867-4',
  呼吸: '9279-1',
  血氧饱和度: '59408-5',
  收缩压: '8480-6',
  舒张压: '8462-4',
  身高: '8302-2',
  体重: '29463-7',
};
/** The spec's gender codes (0 unknown, 1 male, 2 female, 3 other) as a form's options name them. */
const GENDER_NAME: Record<number, string> = { 1: '男', 2: '女', 3: '其他' };

type Coding = { system?: string; code?: string };
const codesOf = (codings: unknown, system: string) =>
  (Array.isArray(codings) ? (codings as Coding[]) : [])
    .filter((c) => c?.system === system && typeof c.code === 'string' && c.code)
    .map((c) => c.code!);

/** A number as people write it: no float noise (0.1 + 0.2), no trailing zeros. */
const numberText = (n: number) => String(Number(n.toPrecision(12)));

/** Whole years from a birth date to a day, both `YYYY-MM-DD`. */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A vital sign or examination item; blood pressure (`135/85`) also as its two parts. */
function measured(section: string, name: string, value: string, unit: string, at: Date): RecordEntry[] {
  const base = { section, ...(unit ? { unit } : {}), at: at.toISOString() };
  const code = VITAL_LOINC[name];
  const out: RecordEntry[] = [
    { ...base, displayName: name, value, ...(code ? { code, codeSystem: LOINC } : {}) },
  ];
  const bp = /^\s*(\d{2,3})\s*\/\s*(\d{2,3})\s*$/.exec(value);
  if (name.includes('血压') && bp) {
    for (const [part, v] of [
      ['收缩压', bp[1]!],
      ['舒张压', bp[2]!],
    ] as const)
      out.push({
        ...base,
        displayName: part,
        value: v,
        code: VITAL_LOINC[part]!,
        codeSystem: LOINC,
      });
  }
  return out;
}

/**
 * The entries of one patient of the app as of the end of `asOf` (YYYY-MM-DD). A patient of
 * another app, or none, is refused on `body.patient_id`.
 */
export async function cdrEntries(
  db: Db,
  appId: number,
  patientId: number,
  asOf: string,
): Promise<RecordEntry[]> {
  const [p] = await db
    .select({ gender: patients.gender, birthDate: patients.birthDate })
    .from(patients)
    .where(and(eq(patients.id, patientId), eq(patients.appId, appId)));
  if (!p) throw invalid('body.patient_id', '本应用没有这个 ID 的患者', 'no patient of this app has this id');
  const before = sql`(${asOf}::date + 1)::timestamptz`;
  const mine = (t: typeof labResults | typeof vitalSigns | typeof physicalExams | typeof diagnoses) =>
    and(eq(t.appId, appId), eq(t.patientId, patientId));

  const [labs, vitals, exams, dx] = await Promise.all([
    db
      .selectDistinctOn([labResults.itemCode])
      .from(labResults)
      .where(and(mine(labResults), lt(labResults.collectedAt, before)))
      .orderBy(labResults.itemCode, desc(labResults.collectedAt), desc(labResults.id)),
    db
      .selectDistinctOn([vitalSigns.itemName])
      .from(vitalSigns)
      .where(and(mine(vitalSigns), lt(vitalSigns.recordDt, before), sql`${vitalSigns.itemName} <> '事件'`))
      .orderBy(vitalSigns.itemName, desc(vitalSigns.recordDt), desc(vitalSigns.id)),
    db
      .selectDistinctOn([physicalExams.item])
      .from(physicalExams)
      .where(and(mine(physicalExams), lt(physicalExams.recordedAt, before)))
      .orderBy(physicalExams.item, desc(physicalExams.recordedAt), desc(physicalExams.id)),
    db
      .select()
      .from(diagnoses)
      .where(and(mine(diagnoses), lt(diagnoses.diagnosedAt, before)))
      .orderBy(desc(diagnoses.diagnosedAt), desc(diagnoses.id))
      .limit(DIAGNOSES_MAX),
  ]);

  const dated: RecordEntry[] = [
    ...labs.map((l): RecordEntry => {
      const loinc = codesOf(l.codings, LOINC).filter((c) => c !== l.itemCode);
      return {
        section: 'labResults',
        code: l.itemCode,
        ...(loinc.length ? { otherCodes: loinc } : {}),
        displayName: l.itemName,
        value: l.valueNum !== null ? numberText(l.valueNum) : l.valueText,
        ...(l.unit ? { unit: l.unit } : {}),
        at: l.collectedAt.toISOString(),
      };
    }),
    ...vitals.flatMap((v) => measured('vitalSigns', v.itemName, v.value, v.itemUnit, v.recordDt)),
    ...exams.flatMap((e) => measured('physicalExams', e.item, e.value, e.unit, e.recordedAt)),
    ...dx.map((d): RecordEntry => {
      const other = codesOf(d.codings, 'http://snomed.info/sct');
      return {
        section: 'diagnoses',
        ...(d.icd10 ? { code: d.icd10 } : {}),
        ...(other.length ? { otherCodes: other } : {}),
        displayName: d.name,
        value: d.name,
        at: d.diagnosedAt.toISOString(),
      };
    }),
  ].filter((e) => e.value !== '');
  dated.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));

  const basic: RecordEntry[] = [];
  const gender = GENDER_NAME[p.gender];
  if (gender)
    basic.push({
      section: 'patients',
      code: '76689-9',
      codeSystem: LOINC,
      displayName: '性别',
      value: gender,
      valueCode: String(p.gender),
    });
  if (p.birthDate) {
    basic.push({
      section: 'patients',
      code: '21112-8',
      codeSystem: LOINC,
      displayName: '出生日期',
      value: p.birthDate,
    });
    const age = ageOn(p.birthDate, asOf);
    if (age >= 0)
      basic.push({
        section: 'patients',
        code: '30525-0',
        codeSystem: LOINC,
        displayName: '年龄',
        value: String(age),
      });
  }
  return [...basic, ...dated];
}
