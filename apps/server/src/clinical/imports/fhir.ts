import { cdrCodings } from '@crdp/core';
import { patientInput, type RecordTable, recordInputs } from '../records.js';
import { firstIssue, type MappedImport, type MappedRecord, refused } from './mapped.js';

/**
 * FHIR R4 Bundle -> CDR rows: Patient, Encounter, Condition, Observation (vital signs,
 * laboratory, physical measurements), MedicationRequest, Procedure, AllergyIntolerance.
 * Other resources are counted as skipped. Every row is validated by the same rules as manual
 * entry; a bad row is reported with its entry number and field, the rest are kept.
 */
export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function coding(cc: unknown) {
  const c = obj(arr(obj(cc).coding)[0]);
  return {
    system: str(c.system) ?? '',
    code: str(c.code) ?? '',
    display: str(c.display) ?? str(obj(cc).text) ?? '',
  };
}
/** Every coding of a CodeableConcept that has a code, as the source wrote it. */
function codingsOf(cc: unknown) {
  return arr(obj(cc).coding)
    .map(obj)
    .filter((c) => typeof c.code === 'string' && c.code.trim() !== '')
    .map((c) => ({ system: str(c.system) ?? '', code: str(c.code)!, display: str(c.display) ?? '' }));
}
const isIcd10 = (system: string) => /icd-?10/i.test(system);
const textOf = (cc: unknown) => str(obj(cc).text) ?? coding(cc).display;

const VITALS: Record<string, { name: string; unit?: string }> = {
  '8867-4': { name: '脉搏', unit: '次/分' },
  '8310-5': { name: '体温', unit: '℃' },
  '2708-6': { name: '血氧饱和度', unit: '%' },
  '59408-5': { name: '血氧饱和度', unit: '%' },
  '9279-1': { name: '呼吸', unit: '次/分' },
  '85354-9': { name: '血压', unit: 'mmHg' },
  '55284-4': { name: '血压', unit: 'mmHg' },
};
const MEASUREMENTS: Record<string, string> = {
  '8302-2': '身高',
  '29463-7': '体重',
  '39156-5': '体重指数',
  '72514-3': '疼痛评分',
  '8287-5': '头围',
};
const GENDER: Record<string, number> = { male: 1, female: 2, other: 3, unknown: 0 };
const ENCOUNTER_KIND: Record<string, 'outpatient' | 'inpatient' | 'emergency'> = {
  AMB: 'outpatient',
  VR: 'outpatient',
  HH: 'outpatient',
  IMP: 'inpatient',
  ACUTE: 'inpatient',
  NONAC: 'inpatient',
  SS: 'inpatient',
  EMER: 'emergency',
};

const isCjk = (s: string) => /[\u4e00-\u9fff]/.test(s);

/** A person's name as written: CJK names family first without a space, others given names first. */
export function personName(p: Json) {
  const n = obj(arr(p.name)[0]);
  if (str(n.text)) return str(n.text)!;
  const family = str(n.family) ?? '';
  const given = arr(n.given).filter((g): g is string => typeof g === 'string');
  if (isCjk(family) || given.some(isCjk)) return `${family}${given.join('')}`;
  return [...given, family].filter(Boolean).join(' ');
}

function identifierOf(p: Json, test: (code: string, system: string) => boolean) {
  for (const i of arr(p.identifier)) {
    const id = obj(i);
    const code = coding(id.type).code;
    if (test(code, str(id.system) ?? '')) return str(id.value);
  }
  return undefined;
}

export function mapFhirBundle(bundle: unknown): MappedImport {
  const b = obj(bundle);
  const out: MappedImport = { total: 0, skipped: 0, patients: [], records: [], errors: [] };
  if (b.resourceType !== 'Bundle') {
    out.errors.push({ row: 0, ...refused('resourceType', '应为 FHIR Bundle', 'expected a FHIR Bundle') });
    return out;
  }
  const entries = arr(b.entry);
  out.total = entries.length;
  // References use urn:uuid:<id> (transaction bundles) or Type/<id>: both name the same source id.
  const refs = new Map<string, string>();
  entries.forEach((e) => {
    const r = obj(obj(e).resource);
    const id = str(r.id) ?? str(obj(e).fullUrl)?.replace(/^urn:uuid:/, '');
    if (!id) return;
    const full = str(obj(e).fullUrl);
    if (full) refs.set(full, id);
    refs.set(`${String(r.resourceType)}/${id}`, id);
  });
  const refId = (ref: unknown) => {
    const s = str(obj(ref).reference);
    return s ? (refs.get(s) ?? s.replace(/^urn:uuid:/, '').replace(/^\w+\//, '')) : undefined;
  };
  const patientIds = new Set<string>();

  const push = <T extends RecordTable>(
    row: number,
    resourceRef: string,
    table: T,
    sourceId: string,
    res: Json,
    input: unknown,
    codings?: unknown,
  ) => {
    const patient = refId(res.subject) ?? refId(res.patient);
    if (!patient || !patientIds.has(patient)) {
      out.errors.push({
        row,
        ...refused('subject', '未指向本 Bundle 中的任何 Patient', 'refers to no Patient of this bundle'),
        ref: resourceRef,
      });
      return;
    }
    const parsed = recordInputs[table].safeParse(input);
    if (!parsed.success) {
      out.errors.push({ row, ...firstIssue(parsed.error.issues, input), ref: resourceRef });
      return;
    }
    const coded = codings === undefined ? undefined : cdrCodings.safeParse(codings);
    if (coded && !coded.success) {
      const issue = firstIssue(coded.error.issues, codings);
      out.errors.push({
        row,
        ...issue,
        field: issue.field ? `codings.${issue.field}` : 'codings',
        ref: resourceRef,
      });
      return;
    }
    const visit = refId(res.encounter) ?? refId(res.context);
    const rec: MappedRecord = {
      table,
      sourceId,
      row,
      patient: { sourceId: patient },
      input: parsed.data as never,
    };
    if (coded) rec.codings = coded.data;
    if (visit && table !== 'visits') rec.visitSourceId = visit;
    out.records.push(rec);
  };

  // Patients first: other resources refer to them.
  entries.forEach((e, i) => {
    const r = obj(obj(e).resource);
    if (r.resourceType !== 'Patient') return;
    const row = i + 1;
    const id = str(r.id) ?? str(obj(e).fullUrl)?.replace(/^urn:uuid:/, '') ?? `row-${row}`;
    const nid = identifierOf(
      r,
      (code, system) => code === 'NI' || /id-?card|resident|national/i.test(system),
    );
    const mrn = identifierOf(r, (code) => code === 'MR') ?? id;
    const tel = arr(r.telecom)
      .map(obj)
      .find((t) => t.system === 'phone');
    const addr = obj(arr(r.address)[0]);
    const input = {
      mrn: mrn.slice(0, 40),
      name: personName(r),
      gender: GENDER[str(r.gender) ?? 'unknown'] ?? 0,
      birthDate: str(r.birthDate)?.slice(0, 10),
      ...(nid !== undefined ? { nationalId: nid } : {}),
      phone: str(tel?.value) ?? '',
      address: [...arr(addr.line), addr.city, addr.state].filter((x) => typeof x === 'string').join(' '),
    };
    const parsed = patientInput.safeParse(input);
    if (!parsed.success) {
      out.errors.push({ row, ...firstIssue(parsed.error.issues, input), ref: `Patient/${id}` });
      return;
    }
    patientIds.add(id);
    out.patients.push({ sourceId: id, row, input: parsed.data });
  });

  entries.forEach((e, i) => {
    const r = obj(obj(e).resource);
    const type = str(r.resourceType) ?? '';
    const row = i + 1;
    const id = str(r.id) ?? str(obj(e).fullUrl)?.replace(/^urn:uuid:/, '') ?? `row-${row}`;
    const ref = `${type}/${id}`;
    switch (type) {
      case 'Patient':
        return;
      case 'Encounter': {
        const period = obj(r.period);
        push(row, ref, 'visits', id, r, {
          kind: ENCOUNTER_KIND[str(obj(r.class).code) ?? ''] ?? 'outpatient',
          department: textOf(arr(r.type)[0]) || textOf(r.serviceType),
          // The first participant named (attending, admitter...): the doctor in charge.
          doctor:
            arr(r.participant)
              .map((p) => str(obj(obj(p).individual).display))
              .find((d) => d?.trim())
              ?.trim()
              .slice(0, 50) ?? undefined,
          admitAt: str(period.start),
          dischargeAt: str(period.end),
        });
        return;
      }
      case 'Condition': {
        // Every coding is kept (Synthea codes conditions in SNOMED CT); the ICD-10 one, wherever
        // it stands in the list, is also the diagnosis's ICD-10 code.
        const codings = codingsOf(r.code);
        push(
          row,
          ref,
          'diagnoses',
          id,
          r,
          {
            icd10: codings.find((c) => isIcd10(c.system))?.code ?? '',
            name: textOf(r.code),
            kind: 'secondary',
            diagnosedAt: str(r.onsetDateTime) ?? str(r.recordedDate) ?? str(obj(r.onsetPeriod).start),
          },
          codings,
        );
        return;
      }
      case 'Observation': {
        const category = arr(r.category)
          .map((c) => coding(c).code)
          .join(',');
        const c = coding(r.code);
        const when = str(r.effectiveDateTime) ?? str(obj(r.effectivePeriod).start) ?? str(r.issued);
        const q = obj(r.valueQuantity);
        const vital = VITALS[c.code];
        if (vital) {
          let value: string | undefined;
          if (typeof q.value === 'number') value = String(q.value);
          else {
            const comp = arr(r.component).map(obj);
            const part = (code: string) =>
              comp.find((x) => coding(x.code).code === code)?.valueQuantity as Json | undefined;
            const sys = part('8480-6')?.value;
            const dia = part('8462-4')?.value;
            if (typeof sys === 'number' && typeof dia === 'number') value = `${sys}/${dia}`;
          }
          push(row, ref, 'vitalSigns', id, r, {
            itemName: vital.name,
            value,
            itemUnit: vital.unit ?? str(q.unit) ?? '',
            recordDt: when,
          });
          return;
        }
        if (MEASUREMENTS[c.code]) {
          push(row, ref, 'physicalExams', id, r, {
            item: MEASUREMENTS[c.code],
            value:
              typeof q.value === 'number'
                ? String(Math.round(q.value * 100) / 100)
                : textOf(r.valueCodeableConcept),
            unit: str(q.unit) ?? '',
            recordedAt: when,
          });
          return;
        }
        if (category.includes('laboratory')) {
          const range = obj(arr(r.referenceRange)[0]);
          const interp = coding(arr(r.interpretation)[0]).code;
          push(
            row,
            ref,
            'labResults',
            id,
            r,
            {
              itemCode: c.code,
              itemName: c.display || textOf(r.code),
              ...(typeof q.value === 'number' ? { valueNum: q.value } : {}),
              valueText:
                typeof q.value === 'number'
                  ? String(q.value)
                  : (str(r.valueString) ?? textOf(r.valueCodeableConcept)),
              unit: str(q.unit) ?? '',
              ...(typeof obj(range.low).value === 'number' ? { refLow: obj(range.low).value } : {}),
              ...(typeof obj(range.high).value === 'number' ? { refHigh: obj(range.high).value } : {}),
              ...(['H', 'L', 'N', 'A'].includes(interp) ? { abnormalFlag: interp } : {}),
              collectedAt: when,
            },
            codingsOf(r.code),
          );
          return;
        }
        out.skipped++;
        return;
      }
      case 'MedicationRequest': {
        const dosage = obj(arr(r.dosageInstruction)[0]);
        const dr = obj(arr(dosage.doseAndRate)[0]);
        const dose = obj(dr.doseQuantity);
        const repeat = obj(obj(dosage.timing).repeat);
        push(
          row,
          ref,
          'orders',
          id,
          r,
          {
            category: 'drug',
            code: coding(r.medicationCodeableConcept).code,
            name: textOf(r.medicationCodeableConcept) || textOf(r.medicationReference),
            dose: typeof dose.value === 'number' ? String(dose.value) : '',
            doseUnit: str(dose.unit) ?? '',
            route: textOf(dosage.route),
            frequency:
              typeof repeat.frequency === 'number'
                ? `${repeat.frequency}/${String(repeat.period ?? 1)}${String(repeat.periodUnit ?? 'd')}`
                : dosage.asNeededBoolean
                  ? 'PRN'
                  : '',
            startAt: str(r.authoredOn),
            ...(r.status === 'stopped' || r.status === 'completed'
              ? { stopAt: str(obj(obj(r.dispenseRequest).validityPeriod).end) }
              : {}),
          },
          codingsOf(r.medicationCodeableConcept),
        );
        return;
      }
      case 'Procedure': {
        const c = coding(r.code);
        push(
          row,
          ref,
          'operations',
          id,
          r,
          {
            code: c.code,
            name: textOf(r.code),
            operatedAt: str(r.performedDateTime) ?? str(obj(r.performedPeriod).start),
            surgeon:
              textOf(obj(arr(r.performer)[0]).actor) ||
              str(obj(obj(arr(r.performer)[0]).actor).display) ||
              '',
          },
          codingsOf(r.code),
        );
        return;
      }
      case 'AllergyIntolerance': {
        const reaction = obj(arr(r.reaction)[0]);
        push(row, ref, 'allergies', id, r, {
          substance: textOf(r.code),
          reaction: textOf(arr(reaction.manifestation)[0]),
          severity: str(reaction.severity) ?? str(r.criticality) ?? '',
          recordedAt: str(r.recordedDate) ?? str(r.assertedDate) ?? str(r.onsetDateTime),
        });
        return;
      }
      default:
        out.skipped++;
    }
  });
  return out;
}
