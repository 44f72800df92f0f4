import {
  CRDP_ODM_NAMESPACE,
  type Form,
  type OdmChange,
  odmAdminData,
  odmMetadata,
  odmSubjectData,
  xmlEscape,
} from '@crdp/crf';
import { and, asc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apps, crfFormVersions, crfRecordChanges, crfRecords, patients } from '../db/schema/index.js';
import { csvStream } from '../files/csv.js';
import { type Cell, streamXlsx } from '../files/xlsx.js';
import type { CrfScope } from './actor.js';
import { loadVersion } from './forms.js';
import { cellText, type ExportColumn, exportColumns } from './items.js';

const BATCH = 500;

/** Reads a form's records in id order, one batch at a time: memory stays flat at any size. */
async function* recordBatches(db: Db, appId: number, formId: number, withDeleted = false) {
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: crfRecords.id,
        subjectCode: crfRecords.subjectCode,
        patientId: crfRecords.patientId,
        patientMrn: patients.mrn,
        status: crfRecords.status,
        version: crfFormVersions.version,
        answers: crfRecords.answers,
        updatedAt: crfRecords.updatedAt,
        createdAt: crfRecords.createdAt,
        createdBy: crfRecords.createdBy,
        createdByName: crfRecords.createdByName,
        deletedAt: crfRecords.deletedAt,
        deletedBy: crfRecords.deletedBy,
        deletedByName: crfRecords.deletedByName,
        deleteReason: crfRecords.deleteReason,
      })
      .from(crfRecords)
      .innerJoin(crfFormVersions, eq(crfFormVersions.id, crfRecords.versionId))
      .leftJoin(patients, eq(patients.id, crfRecords.patientId))
      .where(
        and(
          eq(crfRecords.appId, appId),
          eq(crfRecords.formId, formId),
          gt(crfRecords.id, after),
          withDeleted ? undefined : isNull(crfRecords.deletedAt),
        ),
      )
      .orderBy(asc(crfRecords.id))
      .limit(BATCH);
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < BATCH) return;
  }
}

const subjectOf = (r: { subjectCode: string; patientMrn: string | null; patientId: number | null }) =>
  r.subjectCode || r.patientMrn || (r.patientId ? `patient-${r.patientId}` : '');

/**
 * The export table, streamed: a header row, then one row per record and one column per item (per
 * blank and matrix row), numbers kept as numbers unless shown as an option's name.
 */
async function* exportTable(
  db: Db,
  actor: CrfScope,
  formId: number,
  cols: ExportColumn[],
  labels: boolean,
): AsyncGenerator<Cell[][]> {
  yield [['record_id', 'subject', 'status', 'version', 'updated_at', ...cols.map((c) => c.name)]];
  for await (const batch of recordBatches(db, actor.appId, formId))
    yield batch.map((r) => {
      const answers = r.answers as Record<string, unknown>;
      return [
        r.id,
        subjectOf(r),
        r.status,
        r.version,
        r.updatedAt.toISOString(),
        ...cols.map((c) => {
          const v = c.read(answers);
          return typeof v === 'number' && (!labels || !c.item.options) ? v : cellText(c.item, v, labels);
        }),
      ];
    });
}

/** CSV: the export table with the spreadsheet formula guard. */
export async function* exportCsv(db: Db, actor: CrfScope, formId: number, labels: boolean) {
  const { version } = await loadVersion(db, actor, formId);
  const cols = exportColumns(version.definition as Form);
  yield* csvStream(exportTable(db, actor, formId, cols, labels), { formulaGuard: true });
}

/** XLSX: the same table, numbers as numbers. */
export async function* exportXlsx(db: Db, actor: CrfScope, formId: number, labels: boolean) {
  const { form, version } = await loadVersion(db, actor, formId);
  const cols = exportColumns(version.definition as Form);
  yield* streamXlsx([{ name: form.name, rows: exportTable(db, actor, formId, cols, labels) }]);
}

/**
 * CDISC ODM 1.3.2: metadata of the latest version and the clinical data of every record. With
 * `audit` (the default), the file is Transactional: deleted records too, each record's status, and
 * the history of every changed value with its AuditRecord, the users and the app in AdminData.
 */
export async function* exportOdm(db: Db, actor: CrfScope, formId: number, audit = true) {
  const { form, version } = await loadVersion(db, actor, formId);
  const definition = version.definition as Form;
  const studyOid = `CRDP.APP${actor.appId}`;
  const formOid = `F.${formId}`;
  const mdv = `MDV.${formId}.V${version.version}`;
  const meta = odmMetadata(definition, { formName: form.name, formOid, mdv, audit });
  const locationOid = `LOC.APP${actor.appId}`;
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" xmlns:crdp="${CRDP_ODM_NAMESPACE}" FileType="${audit ? 'Transactional' : 'Snapshot'}" FileOID="CRDP.F${formId}.${Date.now()}" CreationDateTime="${new Date().toISOString()}" ODMVersion="1.3.2" SourceSystem="CRDP">\n`;
  yield `<Study OID="${studyOid}"><GlobalVariables><StudyName>${xmlEscape(form.name)}</StudyName><StudyDescription>${xmlEscape(form.category || form.name)}</StudyDescription><ProtocolName>${xmlEscape(form.name)}</ProtocolName></GlobalVariables>\n`;
  yield `${meta.xml}\n</Study>\n`;
  if (audit) {
    const [app] = await db.select({ name: apps.name }).from(apps).where(eq(apps.appId, actor.appId));
    yield `${odmAdminData(studyOid, await usersOfForm(db, actor.appId, formId), {
      oid: locationOid,
      name: app?.name ?? `CRDP app ${actor.appId}`,
      mdv,
      effectiveDate: version.publishedAt.toISOString().slice(0, 10),
    })}\n`;
  }
  yield `<ClinicalData StudyOID="${studyOid}" MetaDataVersionOID="${mdv}">\n`;
  for await (const batch of recordBatches(db, actor.appId, formId, audit)) {
    const history = audit
      ? await changesOf(
          db,
          actor.appId,
          batch.map((r) => r.id),
        )
      : new Map();
    const out = batch.map((r) =>
      odmSubjectData(
        {
          id: r.id,
          subjectKey: subjectOf(r) || `record-${r.id}`,
          status: r.status,
          answers: r.answers as Record<string, unknown>,
          createdAt: r.createdAt,
          createdBy: r.createdBy,
          createdByName: r.createdByName,
          deleted: r.deletedAt
            ? {
                at: r.deletedAt,
                userId: r.deletedBy,
                userName: r.deletedByName ?? '',
                reason: r.deleteReason ?? '',
              }
            : null,
        },
        history.get(r.id) ?? [],
        { formOid, pages: meta.pages, audit, locationOid },
      ),
    );
    yield `${out.join('\n')}\n`;
  }
  yield '</ClinicalData>\n</ODM>\n';
}

/** The history rows of a batch of records, by record, in order. */
async function changesOf(db: Db, appId: number, ids: number[]): Promise<Map<number, OdmChange[]>> {
  const rows = ids.length
    ? await db
        .select()
        .from(crfRecordChanges)
        .where(and(eq(crfRecordChanges.appId, appId), inArray(crfRecordChanges.recordId, ids)))
        .orderBy(asc(crfRecordChanges.id))
    : [];
  const by = new Map<number, OdmChange[]>();
  for (const r of rows)
    by.set(r.recordId, [
      ...(by.get(r.recordId) ?? []),
      {
        id: r.id,
        itemKey: r.itemKey,
        oldValue: r.oldValue,
        newValue: r.newValue,
        reason: r.reason,
        userId: r.userId,
        userName: r.userName,
        changedAt: r.changedAt,
      },
    ]);
  return by;
}

/** Everyone an audit record of the form's records names: creators, changers, deleters. */
async function usersOfForm(db: Db, appId: number, formId: number) {
  const ofForm = and(eq(crfRecords.appId, appId), eq(crfRecords.formId, formId));
  const [changed, created, deleted] = await Promise.all([
    db
      .selectDistinct({ userId: crfRecordChanges.userId, name: crfRecordChanges.userName })
      .from(crfRecordChanges)
      .innerJoin(crfRecords, eq(crfRecords.id, crfRecordChanges.recordId))
      .where(ofForm),
    db
      .selectDistinct({ userId: crfRecords.createdBy, name: crfRecords.createdByName })
      .from(crfRecords)
      .where(ofForm),
    db
      .selectDistinct({ userId: crfRecords.deletedBy, name: crfRecords.deletedByName })
      .from(crfRecords)
      .where(and(ofForm, isNotNull(crfRecords.deletedAt))),
  ]);
  const users = [...changed, ...created, ...deleted].map((u) => ({ userId: u.userId, name: u.name ?? '' }));
  return users.sort((a, b) => (a.userId ?? -1) - (b.userId ?? -1) || a.name.localeCompare(b.name));
}
