import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { timestamp } from './common.js';

/**
 * Annotation of clinical documents (标注管理 `/system/annotation`, `/api/v0.1/annotations`): a
 * person marks spans of a document's text with labels (the codes the cleaning rules write: SBP,
 * HBV_DNA, ALT). The annotated documents are the labelled set a cleaning rule's precision and
 * recall are measured on. Server: apps/server/src/annotations.
 */

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const annotationParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const annotationSpan = z
  .object({
    start: z.number().int().min(0).max(1_000_000),
    end: z.number().int().min(1).max(1_000_000),
    label: safeText(40, { min: 1, required: 'must not be blank' }).regex(
      /^[A-Za-z][A-Za-z0-9_.-]*$/,
      'a cleaning output code: a letter, then letters, digits, _ . -',
    ),
  })
  .refine((s) => s.end > s.start, { message: 'end must be after start', path: ['end'] });
export type AnnotationSpan = z.infer<typeof annotationSpan>;

export const annotationDocumentQuery = z.object({
  q: safeText(100).default(''),
  /** all, annotated or not yet. */
  state: z.enum(['all', 'annotated', 'open']).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type AnnotationDocumentQuery = z.input<typeof annotationDocumentQuery>;

/** A document of the app, with its annotation when it has one (no patient name: the MRN says whose). */
export const annotationDocument = z.object({
  id: z.number().int(),
  patientMrn: z.string(),
  kind: z.string(),
  title: z.string(),
  writtenAt: timestamp,
  annotated: z.boolean(),
  spans: z.number().int(),
  annotatedAt: timestamp.nullable(),
});
export type AnnotationDocument = z.infer<typeof annotationDocument>;
export const annotationDocumentPage = z.object({
  items: z.array(annotationDocument),
  total: z.number().int(),
});
export type AnnotationDocumentPage = z.infer<typeof annotationDocumentPage>;

/** One document to annotate: its text, its spans, and the labels on offer (from the cleaning rules). */
export const annotationDetail = z.object({
  id: z.number().int(),
  patientMrn: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  writtenAt: timestamp,
  annotated: z.boolean(),
  spans: z.array(z.object({ start: z.number().int(), end: z.number().int(), label: z.string() })),
});
export type AnnotationDetail = z.infer<typeof annotationDetail>;

export const annotationSaveBody = z.object({
  /** Every span of the document (the list replaces the saved one); empty marks a labelled negative. */
  spans: z.array(annotationSpan).max(500),
});
export type AnnotationSaveBody = z.input<typeof annotationSaveBody>;

/** The labels a span may carry: each code a cleaning rule writes, with the rule's name. */
export const annotationLabelList = z.object({
  items: z.array(z.object({ code: z.string(), name: z.string(), ruleRef: z.string(), ruleName: z.string() })),
});
export type AnnotationLabelList = z.infer<typeof annotationLabelList>;

export const annotationEvaluateBody = z.object({
  ruleRef: safeText(40, { min: 1, required: 'must not be blank' }).regex(
    /^(builtin:[a-z_]+|rule:\d+)$/,
    'builtin:<key> or rule:<id>',
  ),
});
export type AnnotationEvaluateBody = z.input<typeof annotationEvaluateBody>;

/**
 * A cleaning rule against the annotated documents: per label it writes, how many spans it read
 * (predicted), how many were marked (annotated), how many of both overlap (matched), precision
 * = matched / predicted, recall = matched / annotated (null when the denominator is 0).
 */
export const annotationEvaluation = z.object({
  ruleRef: z.string(),
  ruleName: z.string(),
  documents: z.number().int(),
  labels: z.array(
    z.object({
      label: z.string(),
      name: z.string(),
      predicted: z.number().int(),
      annotated: z.number().int(),
      matched: z.number().int(),
      precision: z.number().nullable(),
      recall: z.number().nullable(),
    }),
  ),
  total: z.object({
    predicted: z.number().int(),
    annotated: z.number().int(),
    matched: z.number().int(),
    precision: z.number().nullable(),
    recall: z.number().nullable(),
    f1: z.number().nullable(),
  }),
  /** The documents where the rule and the marks disagree, for a look (at most 50). */
  misses: z.array(
    z.object({
      documentId: z.number().int(),
      label: z.string(),
      start: z.number().int(),
      end: z.number().int(),
      text: z.string(),
      kind: z.enum(['falsePositive', 'falseNegative']),
    }),
  ),
});
export type AnnotationEvaluation = z.infer<typeof annotationEvaluation>;
export const annotationDocumentId = id;
