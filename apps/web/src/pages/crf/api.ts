import type { Form, Problem } from '@crdp/crf';
import { RequestError, rest } from '../../api/client';
import type { ItemIssue } from '../../components/crf/CrfRenderer';
import type { UploadedFile } from '../../components/crf/ItemControl';

export type RecordStatus = 'draft' | 'submitted' | 'verified' | 'locked';

export interface CrfFormSummary {
  id: number;
  name: string;
  category: string;
  status: 'active' | 'archived';
  latestVersion: number;
  records: number;
  updatedAt: string;
}

export interface CrfFormDetail extends Omit<CrfFormSummary, 'records'> {
  draft: Form | null;
  versions: Array<{ id: number; version: number; note: string; publishedAt: string }>;
  problems: Problem[];
}

export interface CrfVersion {
  id: number;
  formId: number;
  version: number;
  definition: Form;
}

export interface CrfRecordRow {
  id: number;
  formId: number;
  version: number;
  patientId: number | null;
  patientName: string | null;
  subjectCode: string;
  status: RecordStatus;
  revision: number;
  updatedByName: string;
  updatedAt: string;
}

export interface CrfRecord {
  id: number;
  formId: number;
  versionId: number;
  patientId: number | null;
  subjectCode: string;
  answers: Record<string, unknown>;
  methods: Record<string, string>;
  status: RecordStatus;
  revision: number;
  /** Set when the record was deleted (it stays readable with its history). */
  deletedAt?: string | null;
  deletedByName?: string | null;
  deleteReason?: string | null;
}

export interface CrfRecordDetail {
  record: CrfRecord;
  form: { id: number; name: string; latestVersion: number };
  version: { id: number; version: number; definition: Form };
}

export interface Change {
  id: number;
  itemKey: string;
  oldValue: unknown;
  newValue: unknown;
  reason: string;
  userName: string;
  changedAt: string;
}

/** A save the server refused: the engine's issues, or a 400 naming the field. */
export function issuesOf(e: unknown): ItemIssue[] | null {
  if (!(e instanceof RequestError)) return null;
  const body = e.body as { issues?: ItemIssue[] } | undefined;
  return body?.issues ?? null;
}
export function fieldOf(e: unknown): string | null {
  if (!(e instanceof RequestError)) return null;
  return (e.body as { field?: string } | undefined)?.field ?? null;
}

const silent = { silent: true };

export const crfApi = {
  forms: (q: { page: number; size: number; keyword?: string | undefined; status?: string | undefined }) =>
    rest<{ items: CrfFormSummary[]; total: number }>({ url: 'crf/forms', params: q }),
  form: (id: number) => rest<CrfFormDetail>({ url: `crf/forms/${id}` }),
  createForm: (body: { name: string; category?: string; definition?: unknown }) =>
    rest<CrfFormSummary>({ url: 'crf/forms', method: 'POST', data: body }),
  updateForm: (id: number, body: { name?: string; category?: string }) =>
    rest<CrfFormSummary>({ url: `crf/forms/${id}`, method: 'PATCH', data: body }),
  archive: (id: number, archived: boolean) =>
    rest<unknown>({ url: `crf/forms/${id}/archive`, method: 'POST', data: { archived } }),
  copy: (id: number, name: string) =>
    rest<CrfFormSummary>({ url: `crf/forms/${id}/copy`, method: 'POST', data: { name } }),
  saveDraft: (id: number, definition: Form) =>
    rest<{ problems: Problem[] }>({
      url: `crf/forms/${id}/draft`,
      method: 'PUT',
      data: { definition },
      ...silent,
    }),
  analyze: (id: number, definition: Form) =>
    rest<{ problems: Problem[] }>({
      url: `crf/forms/${id}/analyze`,
      method: 'POST',
      data: { definition },
      ...silent,
    }),
  publish: (id: number, note: string) =>
    rest<{ version: number }>({ url: `crf/forms/${id}/publish`, method: 'POST', data: { note }, ...silent }),
  version: (id: number, version: number) => rest<CrfVersion>({ url: `crf/forms/${id}/versions/${version}` }),
  importForm: (body: {
    format: 'json' | 'redcap' | 'odm';
    name: string;
    content: string;
    formOid?: string;
  }) =>
    rest<{ form: CrfFormSummary; unsupported: string[] }>({
      url: 'crf/forms/import',
      method: 'POST',
      data: body,
      ...silent,
    }),
  freeLink: (formId: number) =>
    rest<{ path: string }>({
      url: 'free_access',
      method: 'POST',
      data: { scopeKind: 'crf', objectId: String(formId), label: `CRF ${formId}` },
    }),
  records: (
    formId: number,
    q: { page: number; size: number; status?: string | undefined; subject?: string | undefined },
  ) => rest<{ items: CrfRecordRow[]; total: number }>({ url: `crf/forms/${formId}/records`, params: q }),
  createRecord: (
    formId: number,
    body: {
      subjectCode?: string | undefined;
      patientId?: number | undefined;
      answers: Record<string, unknown>;
      methods: Record<string, string>;
      submit: boolean;
    },
  ) => rest<CrfRecord>({ url: `crf/forms/${formId}/records`, method: 'POST', data: body, ...silent }),
  record: (id: number) => rest<CrfRecordDetail>({ url: `crf/records/${id}` }),
  saveRecord: (
    id: number,
    body: {
      answers: Record<string, unknown>;
      methods: Record<string, string>;
      submit: boolean;
      revision: number;
      reasons?: Record<string, string>;
      reason?: string;
    },
  ) =>
    rest<{ record: CrfRecord; changed: string[] }>({
      url: `crf/records/${id}`,
      method: 'PUT',
      data: body,
      ...silent,
    }),
  history: (id: number, item?: string) =>
    rest<Change[]>({ url: `crf/records/${id}/history`, params: item ? { item } : {} }),
  transition: (id: number, what: 'verify' | 'lock' | 'unlock', reason: string) =>
    rest<CrfRecord>({ url: `crf/records/${id}/${what}`, method: 'POST', data: { reason } }),
  /** Soft delete with a reason; the server refuses locked records. */
  remove: (id: number, reason: string) =>
    rest<{ id: number; deletedAt: string; deleteReason: string }>({
      url: `crf/records/${id}/delete`,
      method: 'POST',
      data: { reason },
    }),
  upload: async (formId: number, file: File): Promise<UploadedFile> => {
    const buf = new Uint8Array(await file.arrayBuffer());
    let bin = '';
    for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
    return rest<UploadedFile>({
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

export const exportUrl = (formId: number, format: 'csv' | 'xlsx' | 'odm', labels: boolean) =>
  `/api/v0.1/crf/forms/${formId}/export?format=${format}&labels=${labels ? 'names' : 'codes'}`;
