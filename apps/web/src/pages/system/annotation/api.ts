import type {
  AnnotationDetail,
  AnnotationDocumentPage,
  AnnotationDocumentQuery,
  AnnotationEvaluation,
  AnnotationLabelList,
  AnnotationSaveBody,
} from '@crdp/core';
import { rest } from '../../../api/client';

/** 标注管理: documents, their spans, and a cleaning rule measured against them. */
export const annotationApi = {
  documents: (q: AnnotationDocumentQuery) =>
    rest<AnnotationDocumentPage>({ url: 'annotations/documents', params: q }),
  labels: () => rest<AnnotationLabelList>({ url: 'annotations/labels' }),
  document: (id: number) => rest<AnnotationDetail>({ url: `annotations/documents/${id}` }),
  save: (id: number, b: AnnotationSaveBody) =>
    rest<AnnotationDetail>({ url: `annotations/documents/${id}`, method: 'PUT', data: b, silent: true }),
  remove: (id: number) => rest<true>({ url: `annotations/documents/${id}`, method: 'DELETE' }),
  evaluate: (ruleRef: string) =>
    rest<AnnotationEvaluation>({ url: 'annotations/evaluate', method: 'POST', data: { ruleRef } }),
};
