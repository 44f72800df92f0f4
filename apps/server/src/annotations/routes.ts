import {
  annotationDetail as annotationDetailSchema,
  annotationDocumentPage,
  annotationDocumentQuery,
  annotationEvaluateBody,
  annotationEvaluation,
  annotationLabelList,
  annotationParams,
  annotationSaveBody,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  annotationDetail,
  annotationLabels,
  deleteAnnotation,
  evaluateRule,
  listAnnotationDocuments,
  ownedDocumentIds,
  saveAnnotation,
} from './service.js';

const P = '/api/v0.1/annotations';

/** 标注管理 (SystemAnnotation): spans of clinical documents marked with labels, and a rule's precision on them. */
export async function annotationRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['annotations'] });
  const A = (action: string) => ({ apiId: `SystemAnnotation.${action}` });
  const own = ownedPath(annotationParams, ownedDocumentIds, (appId, p) => annotationDetail(db, appId, p.id));

  api.get(
    `${P}/documents`,
    {
      access: A('query'),
      summary: 'The app’s documents, annotated or not (MRN, kind, title; no names)',
      query: annotationDocumentQuery,
      answer: annotationDocumentPage,
    },
    (req) => listAnnotationDocuments(db, signedIn(req.ctx).appId, req.query),
  );
  api.get(
    `${P}/labels`,
    {
      access: A('query'),
      summary: 'The labels a span may carry (the cleaning rules’ output codes)',
      answer: annotationLabelList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return annotationLabels(db, ctx.appId, ctx.locale);
    },
  );
  api.get(
    `${P}/documents/:id`,
    {
      access: A('get'),
      ...own,
      summary: 'A document’s text and its marked spans',
      answer: annotationDetailSchema,
    },
    (req) => annotationDetail(db, signedIn(req.ctx).appId, req.params.id),
  );
  api.put(
    `${P}/documents/:id`,
    {
      access: A('edit'),
      ...own,
      summary: 'Save a document’s spans (the list replaces the saved one; empty marks a labelled negative)',
      body: annotationSaveBody,
      answer: annotationDetailSchema,
    },
    (req) => saveAnnotation(signedIn(req.ctx), req.params.id, req.body.spans),
  );
  api.delete(
    `${P}/documents/:id`,
    {
      access: A('delete'),
      ...own,
      summary: 'Remove a document from the labelled set',
      answer: z.literal(true),
    },
    (req) => deleteAnnotation(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/evaluate`,
    {
      access: A('query'),
      summary: 'A cleaning rule’s precision and recall against the annotated documents',
      body: annotationEvaluateBody,
      answer: annotationEvaluation,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return evaluateRule(db, ctx.appId, ctx.locale, req.body.ruleRef);
    },
  );
}
