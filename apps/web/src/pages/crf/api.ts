import type { FreeAccessCreateBody, FreeAccessCreated } from '@crdp/core';
import type {
  CrfCdrPrefillBody,
  CrfChange,
  CrfForm,
  CrfFormCreateBody,
  CrfFormDetail,
  CrfFormListQuery,
  CrfFormPage,
  CrfFormPatchBody,
  CrfImportBody,
  CrfImported,
  CrfImportRecordsBody,
  CrfImportStudyBody,
  CrfPatientList,
  CrfPrefillResult,
  CrfProblems,
  CrfRecord,
  CrfRecordCreateBody,
  CrfRecordDeleted,
  CrfRecordDetail,
  CrfRecordListQuery,
  CrfRecordPage,
  CrfRecordSaveBody,
  CrfRecordSaved,
  CrfRecordsImported,
  CrfStudyImported,
  CrfSubmissionIssue,
  CrfUploaded,
  CrfVersion,
  Form,
} from '@crdp/crf';
import { RequestError, rest } from '../../api/client';
import type { ItemIssue } from '../../components/crf/CrfRenderer';

/** The CRF calls; every shape is the CRF contract of @crdp/crf (packages/crf/src/contracts.ts). */
export type {
  CrfChange as Change,
  CrfFormDetail,
  CrfFormSummary,
  CrfRecord,
  CrfRecordDetail,
  CrfRecordRow,
  CrfRecordStatus as RecordStatus,
  CrfVersion,
} from '@crdp/crf';

/** A save the server refused: the engine's issues, or a 400 naming the field. */
export function issuesOf(e: unknown): ItemIssue[] | null {
  if (!(e instanceof RequestError)) return null;
  const body = e.body as { issues?: CrfSubmissionIssue[] } | undefined;
  return body?.issues ?? null;
}
export function fieldOf(e: unknown): string | null {
  if (!(e instanceof RequestError)) return null;
  return (e.body as { field?: string } | undefined)?.field ?? null;
}
/**
 * The words of a refusal without the envelope ("请求参数错误：body.subjectCode: …" → "…"): the
 * screen shows them under the field it names, in its own words.
 */
export function refusalText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const field = fieldOf(e);
  if (!field) return text;
  const at = text.indexOf(`${field}: `);
  return at >= 0 ? text.slice(at + field.length + 2) : text;
}

const silent = { silent: true };

export const crfApi = {
  forms: (q: CrfFormListQuery) => rest<CrfFormPage>({ url: 'crf/forms', params: q }),
  form: (id: number) => rest<CrfFormDetail>({ url: `crf/forms/${id}` }),
  createForm: (body: CrfFormCreateBody) => rest<CrfForm>({ url: 'crf/forms', method: 'POST', data: body }),
  updateForm: (id: number, body: CrfFormPatchBody) =>
    rest<CrfForm>({ url: `crf/forms/${id}`, method: 'PATCH', data: body }),
  archive: (id: number, archived: boolean) =>
    rest<CrfForm>({ url: `crf/forms/${id}/archive`, method: 'POST', data: { archived } }),
  copy: (id: number, name: string) =>
    rest<CrfForm>({ url: `crf/forms/${id}/copy`, method: 'POST', data: { name } }),
  saveDraft: (id: number, definition: Form) =>
    rest<CrfProblems>({
      url: `crf/forms/${id}/draft`,
      method: 'PUT',
      data: { definition },
      ...silent,
    }),
  analyze: (id: number, definition: Form) =>
    rest<CrfProblems>({
      url: `crf/forms/${id}/analyze`,
      method: 'POST',
      data: { definition },
      ...silent,
    }),
  publish: (id: number, note: string) =>
    rest<CrfVersion>({ url: `crf/forms/${id}/publish`, method: 'POST', data: { note }, ...silent }),
  version: (id: number, version: number) => rest<CrfVersion>({ url: `crf/forms/${id}/versions/${version}` }),
  importForm: (body: CrfImportBody) =>
    rest<CrfImported>({
      url: 'crf/forms/import',
      method: 'POST',
      data: body,
      ...silent,
    }),
  importRecords: (formId: number, body: CrfImportRecordsBody) =>
    rest<CrfRecordsImported>({
      url: `crf/forms/${formId}/import-records`,
      method: 'POST',
      data: body,
      ...silent,
    }),
  importStudy: (body: CrfImportStudyBody) =>
    rest<CrfStudyImported>({
      url: 'crf/forms/import-study',
      method: 'POST',
      data: body,
      ...silent,
    }),
  freeLink: (formId: number) =>
    rest<FreeAccessCreated>({
      url: 'free_access',
      method: 'POST',
      data: {
        scopeKind: 'crf',
        objectId: String(formId),
        label: `CRF ${formId}`,
      } satisfies FreeAccessCreateBody,
    }),
  records: (formId: number, q: CrfRecordListQuery) =>
    rest<CrfRecordPage>({ url: `crf/forms/${formId}/records`, params: q }),
  /** Patients a record may be for, by name or MRN (the record editor's picker). */
  patients: (keyword: string) =>
    rest<CrfPatientList>({ url: 'crf/patients', params: keyword ? { keyword } : {} }),
  /** What the patient's clinical data would fill in the form's latest version (the editor shows a refusal). */
  prefillCdr: (formId: number, body: CrfCdrPrefillBody) =>
    rest<CrfPrefillResult>({ url: `crf/forms/${formId}/prefill/cdr`, method: 'POST', data: body, ...silent }),
  createRecord: (formId: number, body: CrfRecordCreateBody) =>
    rest<CrfRecord>({ url: `crf/forms/${formId}/records`, method: 'POST', data: body, ...silent }),
  record: (id: number) => rest<CrfRecordDetail>({ url: `crf/records/${id}` }),
  saveRecord: (id: number, body: CrfRecordSaveBody) =>
    rest<CrfRecordSaved>({
      url: `crf/records/${id}`,
      method: 'PUT',
      data: body,
      ...silent,
    }),
  history: (id: number, item?: string) =>
    rest<CrfChange[]>({ url: `crf/records/${id}/history`, params: item ? { item } : {} }),
  transition: (id: number, what: 'verify' | 'lock' | 'unlock', reason: string) =>
    rest<CrfRecord>({ url: `crf/records/${id}/${what}`, method: 'POST', data: { reason } }),
  /** Soft delete with a reason; the server refuses locked records. */
  remove: (id: number, reason: string) =>
    rest<CrfRecordDeleted>({
      url: `crf/records/${id}/delete`,
      method: 'POST',
      data: { reason },
    }),
  upload: async (formId: number, file: File): Promise<CrfUploaded> => {
    const buf = new Uint8Array(await file.arrayBuffer());
    let bin = '';
    for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return rest<CrfUploaded>({
      url: `crf/forms/${formId}/uploads`,
      method: 'POST',
      data: {
        fileName: file.name,
        contentType: file.type || 'application/octet-stream',
        dataBase64: btoa(bin),
      },
    });
  },
};

export const exportUrl = (formId: number, format: 'csv' | 'xlsx' | 'odm', labels: boolean, audit = true) =>
  `/api/v0.1/crf/forms/${formId}/export?format=${format}&labels=${labels ? 'names' : 'codes'}${format === 'odm' && !audit ? '&audit=false' : ''}`;
