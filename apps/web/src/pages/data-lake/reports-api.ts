import type {
  DataFactoryDetail,
  DataFactoryEntry,
  DataFactoryEntryCreate,
  DataFactoryEntryPatch,
  DataFactoryKind,
  DataFactoryList,
  DataFactoryListQuery,
  Report,
  ReportCreate,
  ReportExportBody,
  ReportList,
  ReportPatch,
  ReportPreviewBody,
  ReportResult,
  ReportRunBody,
} from '@crdp/core';
import { http, RequestError, rest } from '../../api/client';
import { saveBlob } from '../crf/download';

/** Calls of the report query screen (报表查询). */
export const reportApi = {
  list: (keyword?: string) => rest<ReportList>({ url: 'reports', params: keyword ? { keyword } : {} }),
  add: (r: ReportCreate) => rest<Report>({ url: 'reports', method: 'POST', data: r, silent: true }),
  edit: (id: number, r: ReportPatch) =>
    rest<Report>({ url: `reports/${id}`, method: 'PATCH', data: r, silent: true }),
  remove: (id: number) => rest<true>({ url: `reports/${id}`, method: 'DELETE' }),
  run: (id: number, body: ReportRunBody) =>
    rest<ReportResult>({ url: `reports/${id}/run`, method: 'POST', data: body, silent: true }),
  preview: (body: ReportPreviewBody) =>
    rest<ReportResult>({ url: 'reports/preview', method: 'POST', data: body, silent: true }),
  /**
   * Downloads the report's rows as a file. A refusal comes back as a JSON body inside the blob:
   * its message is read out and thrown, so the screen shows the server's words.
   */
  export: async (id: number, body: ReportExportBody, fileName: string) => {
    try {
      const res = await http.post<Blob>(`/api/v0.1/reports/${id}/export`, body, {
        responseType: 'blob',
        timeout: 0,
        silent: true,
      });
      saveBlob(res.data, fileName);
    } catch (e) {
      const err = e as RequestError;
      const blob = err.body as Blob | undefined;
      if (blob && typeof blob.text === 'function') {
        const text = await blob.text();
        let message = err.message;
        try {
          message = (JSON.parse(text) as { message?: string }).message ?? message;
        } catch {
          // Not JSON: keep the client's own message.
        }
        throw new RequestError(message, err.status, text, false);
      }
      throw e;
    }
  },
};

/** Calls of the data factory directory (数据工厂目录). */
export const dataFactoryApi = {
  list: (q: DataFactoryListQuery) => rest<DataFactoryList>({ url: 'data-factory/datasets', params: q }),
  detail: (kind: DataFactoryKind, id: number) =>
    rest<DataFactoryDetail>({ url: `data-factory/datasets/${kind}/${id}` }),
  add: (e: DataFactoryEntryCreate) =>
    rest<DataFactoryEntry>({ url: 'data-factory/entries', method: 'POST', data: e, silent: true }),
  edit: (id: number, e: DataFactoryEntryPatch) =>
    rest<DataFactoryEntry>({ url: `data-factory/entries/${id}`, method: 'PATCH', data: e, silent: true }),
  remove: (id: number) => rest<true>({ url: `data-factory/entries/${id}`, method: 'DELETE' }),
};
