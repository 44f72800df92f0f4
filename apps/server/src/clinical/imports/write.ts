import { CDR_CHILD_KINDS, CODED_TABLES } from '@crdp/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { patients } from '../../db/schema/index.js';
import { type CdrTable, type RecordTable, rowOf, upsertRows } from '../records.js';
import { type MappedImport, type RowError, refused } from './mapped.js';

export interface WriteResult {
  counts: Partial<Record<CdrTable, number>>;
  errors: RowError[];
  succeeded: number;
}

/**
 * Writes a mapped import in the caller's transaction: patients, then visits, then the rest,
 * each upserted by (app, source, source id). Rows whose patient is unknown or was refused are
 * reported, not written.
 */
export async function writeImport(
  tx: Tx,
  appId: number,
  source: 'fhir' | 'csv',
  m: MappedImport,
  onProgress: (fraction: number) => Promise<void> = async () => {},
): Promise<WriteResult> {
  const errors: RowError[] = [];
  const counts: Partial<Record<CdrTable, number>> = {};
  const patientIds = new Map<string, number>();

  // A medical record number already used by another patient of the app refuses the row.
  const mrns = m.patients.map((p) => p.input.mrn);
  const taken = mrns.length
    ? await tx
        .select({ mrn: patients.mrn, source: patients.source, sourceId: patients.sourceId })
        .from(patients)
        .where(and(eq(patients.appId, appId), inArray(patients.mrn, mrns)))
    : [];
  const owner = new Map(taken.map((t) => [t.mrn, t]));
  const goodPatients = m.patients.filter((p) => {
    const o = owner.get(p.input.mrn);
    if (o && !(o.source === source && o.sourceId === p.sourceId)) {
      errors.push({
        row: p.row,
        ...refused(
          'mrn',
          `病历号 ${p.input.mrn} 已属于另一位患者`,
          `medical record number ${p.input.mrn} belongs to another patient`,
        ),
      });
      return false;
    }
    return true;
  });
  if (goodPatients.length) {
    const ids = await upsertRows(
      tx,
      'patients',
      goodPatients.map((p) => ({
        appId,
        source,
        sourceId: p.sourceId,
        mrn: p.input.mrn,
        name: p.input.name,
        gender: p.input.gender,
        birthDate: p.input.birthDate ?? null,
        nationalId: (p.input.nationalId ?? '').toUpperCase(),
        phone: p.input.phone ?? '',
        address: p.input.address ?? '',
        contacts: p.input.contacts ?? [],
        updatedAt: new Date(),
      })),
    );
    for (const [k, v] of ids) patientIds.set(k, v);
    counts.patients = ids.size;
  }

  // CSV rows name their patient by medical record number, among all of the app's patients.
  const byMrn = new Map<string, number>();
  const wantedMrns = [...new Set(m.records.flatMap((r) => ('mrn' in r.patient ? [r.patient.mrn] : [])))];
  for (let i = 0; i < wantedMrns.length; i += 1000) {
    const found = await tx
      .select({ id: patients.id, mrn: patients.mrn })
      .from(patients)
      .where(and(eq(patients.appId, appId), inArray(patients.mrn, wantedMrns.slice(i, i + 1000))));
    for (const f of found) byMrn.set(f.mrn, f.id);
  }

  const patientOf = (r: MappedImport['records'][number]) =>
    'mrn' in r.patient ? byMrn.get(r.patient.mrn) : patientIds.get(r.patient.sourceId);

  const visitIds = new Map<string, number>();
  // Visits first: the other rows link to them (CDR_CHILD_KINDS lists visits first).
  const order: readonly RecordTable[] = CDR_CHILD_KINDS;
  let done = 0;
  for (const table of order) {
    const rows: Array<Record<string, unknown>> = [];
    for (const r of m.records) {
      if (r.table !== table) continue;
      const patientId = patientOf(r);
      if (!patientId) {
        errors.push({
          row: r.row,
          ...('mrn' in r.patient
            ? refused(
                'mrn',
                `没有病历号为 ${r.patient.mrn} 的患者`,
                `no patient with medical record number ${r.patient.mrn}`,
              )
            : refused('subject', '它所属的患者已被拒绝导入', 'its patient was refused')),
        });
        continue;
      }
      const row = rowOf(table, r.input as never, {
        appId,
        patientId,
        source,
        sourceId: r.sourceId,
      }) as Record<string, unknown>;
      if (r.visitSourceId && table !== 'visits') row.visitId = visitIds.get(r.visitSourceId) ?? null;
      if (r.codings && (CODED_TABLES as readonly string[]).includes(table)) row.codings = r.codings;
      rows.push(row);
    }
    if (rows.length) {
      const ids = await upsertRows(tx, table, rows);
      if (table === 'visits') for (const [k, v] of ids) visitIds.set(k, v);
      counts[table] = ids.size;
    }
    done++;
    await onProgress(done / order.length);
  }
  const written = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  return { counts, errors, succeeded: written };
}
