import { type CrfRecordsImported, crfImportRecordsBody, crfRecordsImported } from '@crdp/crf';
import type { FastifyInstance } from 'fastify';
import { audit } from '../audit/audit.js';
import { crfRecordChanges, crfRecords } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';
import { restRoutes } from '../http/route.js';
import { schemaMessage } from '../http/validation-messages.js';
import { type CrfActor, crfActor, invalid } from './actor.js';
import { evaluateAnswers } from './evaluate.js';
import { loadVersion, ownedFormIds, versionForm } from './forms.js';
import { MAX_ODM_CHARS } from './import.js';
import { newRecordAudit, newRecordColumns, resolveSubject } from './records.js';
import { formParams } from './schemas.js';

/** Faults named in a refusal: all of them up to this many lines, then a count of the rest. */
const MAX_FAULT_LINES = 200;

function refuseFaults(faults: string[]): never {
  const shown = faults.slice(0, MAX_FAULT_LINES);
  const more = faults.length - shown.length;
  const list = shown.map((f, i) => `${i + 1}) ${f}`).join('\n');
  throw invalid(
    'body.content',
    `文件有 ${faults.length} 处错误，未导入任何记录：\n${list}${more ? `\n…另有 ${more} 处` : ''}`,
    `${faults.length} fault${faults.length === 1 ? '' : 's'} in the file, nothing stored:\n${list}${more ? `\n… and ${more} more` : ''}`,
  );
}

/**
 * Records of a form from the ClinicalData of a CDISC ODM file (CRDP's own export, an OpenClinica
 * 3.x extract, any ODM 1.3 file): a record per FormData of the FormDef, for the patient whose
 * medical record number (or the study subject whose code) is the SubjectKey, each value checked
 * against the form's latest version, the file's audit trail kept as the record's history (who,
 * when, why, old and new value). All or nothing: any fault (an unknown subject, item or code, a
 * value that is not a number or date, a repeated item group) stores nothing and every fault is
 * named; each record is held to what a draft saved on the form screen is held to (numbers, bounds,
 * choices, lengths), its values stored as the file gives them. Records are stored as drafts, to be
 * reviewed and submitted. A REDCap records CSV export
 * (`format: 'redcap'`) goes the same way: a record per row, the record ID as SubjectKey.
 */
export async function importRecords(
  app: FastifyInstance,
  actor: CrfActor,
  formId: number,
  body: { format: 'odm' | 'redcap'; content: string; formOid?: string | undefined },
): Promise<CrfRecordsImported> {
  const { form: formRow, version } = await loadVersion(app.db, actor, formId);
  if (formRow.status === 'archived') throw new AppError(409, 'crf.archived');
  if (body.format === 'redcap' && body.formOid !== undefined)
    throw invalid('body.formOid', 'REDCap 记录文件没有 FormOID', 'a REDCap records file has no FormOID');
  const form = versionForm(version);
  const parsed =
    body.format === 'redcap'
      ? {
          formOid: '',
          ...(await app.parsing.run({ kind: 'crf.redcap.data', text: body.content, form }, 'body.content')),
        }
      : {
          notes: [] as string[],
          ...(await app.parsing.run(
            { kind: 'crf.odm.data', text: body.content, form, formOid: body.formOid },
            'body.content',
          )),
        };
  const faults = [...parsed.faults];
  // Held to what a draft saved on the form screen is held to: numbers, bounds, choices, lengths.
  for (const r of parsed.records)
    for (const issue of evaluateAnswers(form, r.answers, {}, 'draft').issues)
      faults.push(`${r.subjectKey} ${r.where}: ${issue.key}: ${issue.messageEn}`);
  for (const r of parsed.records)
    for (const c of r.history)
      if (c.at !== null && Number.isNaN(Date.parse(c.at)))
        faults.push(`${r.subjectKey} ${r.where}: audit time "${c.at}" is not a date-time`);
  return app.db.transaction(async (tx) => {
    const subjects = new Map<string, { patientId: number | null; subjectCode: string }>();
    for (const key of new Set(parsed.records.map((r) => r.subjectKey)))
      try {
        subjects.set(key, await resolveSubject(tx, actor, { subjectCode: key }));
      } catch (e) {
        if (!(e instanceof AppError) || e.status !== 400) throw e;
        faults.push(
          `SubjectKey ${key}: no patient of this app has this medical record number and no study subject this code`,
        );
      }
    if (faults.length) refuseFaults(faults);
    const now = new Date();
    const out: CrfRecordsImported['records'] = [];
    for (const r of parsed.records) {
      const subject = subjects.get(r.subjectKey)!;
      const [row] = await tx
        .insert(crfRecords)
        .values({
          ...newRecordColumns(actor, formId, version.id, subject),
          answers: r.answers,
          methods: {},
          status: 'draft',
        })
        .returning({ id: crfRecords.id });
      if (r.history.length)
        await tx.insert(crfRecordChanges).values(
          r.history.map((c) => ({
            appId: actor.appId,
            recordId: row!.id,
            itemKey: c.itemKey,
            oldValue: c.oldValue ?? null,
            newValue: c.newValue ?? null,
            reason: c.reason,
            userId: null,
            // The person the file names (not an account here), marked as coming from the file.
            userName: `${c.user || '?'} (ODM)`,
            changedAt: c.at ? new Date(c.at) : now,
          })),
        );
      await audit(tx, actor, {
        action: 'crf.record.create',
        entity: 'crf_record',
        entityId: row!.id,
        after: {
          ...newRecordAudit(formId, version.version, subject),
          source: body.format === 'redcap' ? `REDCap ${r.where}` : `ODM ${parsed.formOid} ${r.where}`,
          changes: r.history.length,
        },
      });
      out.push({
        id: row!.id,
        subjectCode: subject.subjectCode,
        patientId: subject.patientId,
        source: r.where,
        changes: r.history.length,
      });
    }
    return { formOid: parsed.formOid, records: out, notes: parsed.notes };
  });
}

/** POST /api/v0.1/crf/forms/:formId/import-records */
export async function crfRecordImportRoutes(app: FastifyInstance) {
  const api = restRoutes(app, { tags: ['crf'] });
  api.post(
    '/api/v0.1/crf/forms/:formId/import-records',
    {
      access: { apiId: 'CrfManagementList.import' },
      ownedIds: ownedFormIds,
      summary:
        "Records of the form from a CDISC ODM file's ClinicalData or REDCap project XML (format odm) or a REDCap records CSV (format redcap); SubjectKey / record ID = a patient's MRN or a study subject's code; the audit trail kept as history; all or none, every fault named",
      params: formParams,
      body: crfImportRecordsBody.refine((b) => b.content.length <= MAX_ODM_CHARS, {
        path: ['content'],
        message: schemaMessage(
          `ODM 文件不能超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
          `an ODM file may be at most ${MAX_ODM_CHARS / 1024 / 1024} MB`,
        ),
      }),
      bodyLimit: 8 * 1024 * 1024,
      answer: crfRecordsImported,
    },
    (req) => importRecords(app, crfActor(req.ctx), req.params.formId, req.body),
  );
}
