import type { Hl7Message, Hl7Segment } from '@medplum/core';
import { bilingual } from '../../http/errors.js';
import type { MappedSourceRow } from '../writer.js';
import { comp, Hl7MappingError, headerOf, isoDate, isoTime, repetitions } from './message.js';

/**
 * The built-in mapping of HL7 v2 messages onto the CDR (an HL7 source has no templates):
 *
 * - ADT^A01/A04/A08 (admit, register, update): the patient from PID (PID-3 identifier as its
 *   source id and medical record number, PID-5 name, PID-7 birth date, PID-8 sex, a national
 *   id typed NI/NNCHN in PID-3 or PID-19, PID-11 address, PID-13 phone) and, with a PV1-19
 *   visit number, the visit (PV1-2 class I/O/E, PV1-3 department, PV1-7 attending doctor, PV1-44
 *   admit, PV1-45 discharge).
 * - ADT^A03 (discharge): the same, and the visit's discharge time (PV1-45, else the event time).
 * - ORU^R01: one lab result per OBX with a value (OBX-3 code^name, OBX-5 value, OBX-6 unit,
 *   OBX-7 range `low-high`, OBX-8 flag, OBX-14 time or the order's OBR-7), for the patient of
 *   PID-3 among the patients of the same source, linked to the visit of PV1-19 when there is one.
 *
 * Only the fields a message carries are given: the processor keeps the CDR's values of the others
 * (an update that names no birth date does not erase it). Times without a zone are Beijing time.
 */

export interface PatientPart {
  key: string;
  values: Partial<{
    mrn: string;
    name: string;
    gender: number;
    birthDate: string;
    nationalId: string;
    phone: string;
    address: string;
  }>;
}

export interface VisitPart {
  key: string;
  values: Partial<{ kind: string; department: string; doctor: string; admitAt: string; dischargeAt: string }>;
}

export type Hl7Plan =
  | { kind: 'adt'; event: string; patient: PatientPart; visit?: VisitPart }
  | { kind: 'oru'; patientKey: string; visitKey?: string; labs: MappedSourceRow[] };

export const HL7_HANDLED = ['ADT^A01', 'ADT^A03', 'ADT^A04', 'ADT^A08', 'ORU^R01'] as const;

const fail = (field: string, zh: string, en: string): never => {
  throw new Hl7MappingError(field, bilingual(zh, en));
};

export function planOf(m: Hl7Message): Hl7Plan {
  const { type } = headerOf(m);
  if (!(HL7_HANDLED as readonly string[]).includes(type))
    fail(
      'MSH-9',
      `不处理的消息类型 ${type || '（空）'}（处理 ${HL7_HANDLED.join('、')}）`,
      `message type ${type || '(empty)'} is not handled (handled: ${HL7_HANDLED.join(', ')})`,
    );
  const pid = m.getSegment('PID') ?? fail('PID', '消息没有 PID 段', 'the message has no PID segment');
  if (type === 'ORU^R01') return oruPlan(m, pid);
  const event = type.slice(4);
  const patient = patientOf(pid);
  const pv1 = m.getSegment('PV1');
  const visitKey = comp(pv1?.getField(19));
  if (!visitKey) {
    if (event === 'A08') return { kind: 'adt', event, patient };
    fail('PV1-19', '缺少就诊号（PV1-19）', 'the visit number (PV1-19) is missing');
  }
  const values: VisitPart['values'] = {};
  const cls = comp(pv1!.getField(2));
  if (cls) {
    const kind = { I: 'inpatient', O: 'outpatient', E: 'emergency' }[cls.toUpperCase()];
    if (!kind)
      fail(
        'PV1-2',
        `就诊类别 ${cls} 无法识别（应为 I 住院、O 门诊或 E 急诊）`,
        `patient class ${cls} is not known (expected I inpatient, O outpatient or E emergency)`,
      );
    values.kind = kind;
  }
  const department = comp(pv1!.getField(3)) || comp(pv1!.getField(10));
  if (department) values.department = department;
  // PV1-7 attending doctor (XCN: id^family^given): the name, else the id.
  const attending = pv1!.getField(7);
  const doctor = (`${comp(attending, 2)}${comp(attending, 3)}` || comp(attending, 1)).trim().slice(0, 50);
  if (doctor) values.doctor = doctor;
  const admit = isoTime(comp(pv1!.getField(44)), 'PV1-44');
  if (admit) values.admitAt = admit;
  let discharge = isoTime(comp(pv1!.getField(45)), 'PV1-45');
  if (!discharge && event === 'A03') {
    const evn = m.getSegment('EVN');
    discharge = isoTime(comp(evn?.getField(6)) || comp(evn?.getField(2)), 'EVN-6');
    if (!discharge)
      fail(
        'PV1-45',
        '出院消息缺少出院时间（PV1-45）',
        'the discharge message has no discharge time (PV1-45)',
      );
  }
  if (discharge) values.dischargeAt = discharge;
  return { kind: 'adt', event, patient, visit: { key: visitKey!, values } };
}

/** PID-3's patient identifier: the repetition typed MR (else PI, else the first one not a national id). */
function patientKeyOf(pid: Hl7Segment): { key: string; nationalId: string } {
  const f = pid.getField(3);
  const ids: Array<{ id: string; type: string }> = [];
  for (let r = 0; r < repetitions(f); r++) ids.push({ id: comp(f, 1, r), type: comp(f, 5, r).toUpperCase() });
  const national = (t: string) => t === 'NI' || t === 'NNCHN';
  const pick =
    ids.find((i) => i.id && i.type === 'MR') ??
    ids.find((i) => i.id && i.type === 'PI') ??
    ids.find((i) => i.id && !national(i.type));
  if (!pick) fail('PID-3', '缺少患者标识（PID-3）', 'the patient identifier (PID-3) is missing');
  const nationalId = ids.find((i) => i.id && national(i.type))?.id ?? comp(pid.getField(19));
  return { key: pick!.id, nationalId };
}

const HAN = /\p{Script=Han}/u;

function patientOf(pid: Hl7Segment): PatientPart {
  const { key, nationalId } = patientKeyOf(pid);
  const values: PatientPart['values'] = { mrn: key };
  const name5 = pid.getField(5);
  const family = comp(name5, 1);
  const given = comp(name5, 2);
  const middle = comp(name5, 3);
  // 张^伟 is 张伟; Smith^John^A is John A Smith.
  const name = HAN.test(family + given)
    ? `${family}${given}`
    : [given, middle, family].filter(Boolean).join(' ');
  if (name) values.name = name;
  const birth = isoDate(comp(pid.getField(7)), 'PID-7');
  if (birth) values.birthDate = birth;
  const sex = comp(pid.getField(8)).toUpperCase();
  if (sex) values.gender = { M: 1, F: 2, O: 3, U: 0 }[sex] ?? 0;
  if (nationalId) values.nationalId = nationalId;
  const addr = pid.getField(11);
  const parts = [comp(addr, 4), comp(addr, 3), comp(addr, 1), comp(addr, 2)].filter(Boolean);
  if (parts.length) values.address = parts.join(HAN.test(parts.join('')) ? '' : ', ');
  // XTN: the old free-form number (1), else the unformatted one (12), else area code and local number (6, 7).
  const tel = pid.getField(13);
  const phone = comp(tel, 1) || comp(tel, 12) || `${comp(tel, 6)}${comp(tel, 7)}`;
  if (phone) values.phone = phone;
  return { key, values };
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const FLAGS: Record<string, 'H' | 'L' | 'N' | 'A'> = {
  H: 'H',
  HH: 'H',
  HU: 'H',
  '>': 'H',
  L: 'L',
  LL: 'L',
  LU: 'L',
  '<': 'L',
  N: 'N',
  A: 'A',
  AA: 'A',
};

function oruPlan(m: Hl7Message, pid: Hl7Segment): Hl7Plan {
  const { key: patientKey } = patientKeyOf(pid);
  const visitKey = comp(m.getSegment('PV1')?.getField(19)) || undefined;
  const { controlId } = headerOf(m);
  const msgTime = comp(m.getSegment('MSH')?.getField(7));
  const labs: MappedSourceRow[] = [];
  const seen = new Map<string, number>();
  let obr: Hl7Segment | undefined;
  let obx = 0;
  for (const s of m.segments) {
    if (s.name === 'OBR') obr = s;
    if (s.name !== 'OBX') continue;
    obx++;
    const at = `OBX[${obx}]`;
    const status = comp(s.getField(11)).toUpperCase();
    // A result that could not be obtained or was deleted carries no value for the CDR.
    if (status === 'X' || status === 'D') continue;
    const type = comp(s.getField(2)).toUpperCase();
    const code = comp(s.getField(3), 1);
    const name = comp(s.getField(3), 2) || code;
    if (!code)
      fail(`${at} OBX-3`, `${at} 缺少检验项目代码（OBX-3）`, `${at}: the test code (OBX-3) is missing`);
    const v5 = s.getField(5);
    let valueNum: number | undefined;
    let valueText = '';
    if (type === 'SN') {
      // Structured numeric: comparator^num1^separator^num2 (e.g. <^5, ^1^:^128).
      const cmp = comp(v5, 1);
      const n1 = comp(v5, 2);
      const sep = comp(v5, 3);
      const n2 = comp(v5, 4);
      if ((cmp === '' || cmp === '=') && !sep && NUMBER.test(n1)) valueNum = Number(n1);
      else valueText = `${cmp === '=' ? '' : cmp}${n1}${sep}${n2}`;
    } else {
      const texts: string[] = [];
      for (let r = 0; r < repetitions(v5); r++) {
        const t = type === 'CE' || type === 'CWE' ? comp(v5, 2, r) || comp(v5, 1, r) : comp(v5, 1, r);
        if (t) texts.push(t);
      }
      const one = texts.join('; ');
      if ((type === 'NM' || type === '') && NUMBER.test(one)) valueNum = Number(one);
      else if (type === 'NM' && one)
        fail(
          `${at} OBX-5`,
          `${at} 数值结果不是数字：${one}`,
          `${at}: the numeric result is not a number: ${one}`,
        );
      else valueText = one;
    }
    if (valueNum === undefined && !valueText) continue;
    const values: Record<string, unknown> = { itemCode: code, itemName: name };
    if (valueNum !== undefined) values.valueNum = valueNum;
    else values.valueText = valueText;
    const unit = comp(s.getField(6), 1) || comp(s.getField(6), 2);
    if (unit) values.unit = unit;
    const range = comp(s.getField(7));
    const r = /^\s*([+-]?\d+(?:\.\d+)?)\s*[-~]\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(range);
    if (r) {
      values.refLow = Number(r[1]);
      values.refHigh = Number(r[2]);
    } else {
      const one = /^\s*([<>])=?\s*([+-]?\d+(?:\.\d+)?)\s*$/.exec(range);
      if (one?.[1] === '<') values.refHigh = Number(one[2]);
      if (one?.[1] === '>') values.refLow = Number(one[2]);
    }
    const flag = FLAGS[comp(s.getField(8)).toUpperCase()];
    if (flag) values.abnormalFlag = flag;
    const time =
      isoTime(comp(s.getField(14)), `${at} OBX-14`) ||
      isoTime(comp(obr?.getField(7)), 'OBR-7') ||
      isoTime(msgTime, 'MSH-7');
    if (!time)
      fail(`${at} OBX-14`, `${at} 缺少检验时间（OBX-14、OBR-7）`, `${at}: no result time (OBX-14, OBR-7)`);
    values.collectedAt = time;
    // The result's key: its order (filler, else placer number, else the message) and test,
    // so a corrected result sent again updates the row instead of adding one.
    const order = comp(obr?.getField(3)) || comp(obr?.getField(2)) || controlId;
    const sub = comp(s.getField(4));
    let key = `${order}:${code}${sub ? `:${sub}` : ''}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key = `${key}:${n}`;
    labs.push({ key, patientKey, visitKey, values, raw: { controlId, obx } });
  }
  if (!labs.length)
    fail('OBX', '结果消息中没有带值的 OBX 段', 'the result message has no OBX segment with a value');
  return { kind: 'oru', patientKey, visitKey, labs };
}
