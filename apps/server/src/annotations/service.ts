import {
  type AnnotationDetail,
  type AnnotationDocumentPage,
  type AnnotationEvaluation,
  type AnnotationLabelList,
  type AnnotationSpan,
  type annotationDocumentQuery,
  annotationSpan,
  cleanDocument,
  type Locale,
} from '@crdp/core';
import { and, asc, desc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { builtinRules, resolveRules } from '../cleaning/rules.js';
import { appRows, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { cleaningRules, documentAnnotations, documents, patients } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';

/**
 * Annotation of clinical documents (标注管理): a person marks spans of a document's body with
 * the codes the cleaning rules write; the annotated documents are the labelled set a rule's
 * precision and recall are measured on (`evaluateRule`). One row per annotated document holds
 * its spans; a row without spans is a labelled negative (nothing should be read from it).
 */

const spans = z.array(annotationSpan);
const trail = auditTrail('document_annotation', 'annotation');

export const ownedDocumentIds = ownedIds(documents, { limit: 50 });

/** The labels on offer: every output code of the built-in rules and the app's own rules. */
export async function annotationLabels(db: Tx, appId: number, locale: Locale): Promise<AnnotationLabelList> {
  const own = await appRows(db, cleaningRules, appId, asc(cleaningRules.id));
  const rules = [
    ...builtinRules(locale).map((r) => ({ ref: r.ref, name: r.name, definition: r.definition })),
    ...own.map((r) => ({
      ref: `rule:${r.id}`,
      name: r.name,
      definition: r.definition as { outputs: Array<{ code: string; name: string }> },
    })),
  ];
  const seen = new Set<string>();
  const items: AnnotationLabelList['items'] = [];
  for (const r of rules)
    for (const o of r.definition.outputs)
      if (!seen.has(o.code)) {
        seen.add(o.code);
        items.push({ code: o.code, name: o.name, ruleRef: r.ref, ruleName: r.name });
      }
  return { items };
}

export async function listAnnotationDocuments(
  db: Tx,
  appId: number,
  q: z.output<typeof annotationDocumentQuery>,
): Promise<AnnotationDocumentPage> {
  const where: SQL[] = [eq(documents.appId, appId)];
  if (q.q) {
    const like = `%${escapeLike(q.q)}%`;
    where.push(or(ilike(documents.title, like), ilike(patients.mrn, like), ilike(documents.body, like))!);
  }
  if (q.state === 'annotated') where.push(isNotNull(documentAnnotations.id));
  if (q.state === 'open') where.push(isNull(documentAnnotations.id));
  const matching = db
    .select({
      id: documents.id,
      patientMrn: patients.mrn,
      kind: documents.kind,
      title: documents.title,
      writtenAt: documents.writtenAt,
      spans: documentAnnotations.spans,
      annotatedAt: documentAnnotations.updatedAt,
    })
    .from(documents)
    .innerJoin(patients, eq(patients.id, documents.patientId))
    .leftJoin(
      documentAnnotations,
      and(eq(documentAnnotations.documentId, documents.id), eq(documentAnnotations.appId, appId)),
    )
    .where(and(...where));
  // The total counts the very rows the page is cut from.
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(matching.as('matching'));
  const rows = await matching
    .orderBy(desc(documents.writtenAt), desc(documents.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size);
  return {
    total: Number(count?.n ?? 0),
    items: rows.map((r) => ({
      id: r.id,
      patientMrn: r.patientMrn,
      kind: r.kind,
      title: r.title,
      writtenAt: r.writtenAt.toISOString(),
      annotated: r.annotatedAt !== null,
      spans: r.spans ? (r.spans as unknown[]).length : 0,
      annotatedAt: r.annotatedAt ? r.annotatedAt.toISOString() : null,
    })),
  };
}

async function documentOf(db: Tx, appId: number, id: number) {
  const [d] = await db
    .select({ d: documents, mrn: patients.mrn })
    .from(documents)
    .innerJoin(patients, eq(patients.id, documents.patientId))
    .where(and(eq(documents.id, id), eq(documents.appId, appId)));
  if (!d) throw notFound('document');
  return d;
}

async function annotationOf(db: Tx, appId: number, documentId: number) {
  const [a] = await db
    .select()
    .from(documentAnnotations)
    .where(and(eq(documentAnnotations.appId, appId), eq(documentAnnotations.documentId, documentId)));
  return a ?? null;
}

export async function annotationDetail(db: Tx, appId: number, id: number): Promise<AnnotationDetail> {
  const { d, mrn } = await documentOf(db, appId, id);
  const a = await annotationOf(db, appId, id);
  return {
    id: d.id,
    patientMrn: mrn,
    kind: d.kind,
    title: d.title,
    body: d.body,
    writtenAt: d.writtenAt.toISOString(),
    annotated: a !== null,
    spans: a ? spans.parse(a.spans) : [],
  };
}

/** Saves a document's spans (replacing them): within the text, labels the rules write; audited. */
export async function saveAnnotation(ctx: SignedIn, id: number, input: AnnotationSpan[]) {
  return ctx.db.transaction(async (tx) => {
    const { d } = await documentOf(tx, ctx.appId, id);
    const labels = new Set((await annotationLabels(tx, ctx.appId, ctx.locale)).items.map((l) => l.code));
    input.forEach((s, i) => {
      if (s.end > d.body.length)
        throw invalidField(
          `body.spans.${i}.end`,
          `超出文书长度 ${d.body.length}`,
          `past the end of the document (${d.body.length} characters)`,
        );
      if (!labels.has(s.label))
        throw invalidField(
          `body.spans.${i}.label`,
          `没有清洗规则写出 ${s.label}`,
          `no cleaning rule writes ${s.label}`,
        );
    });
    const sorted = [...input].sort((a, b) => a.start - b.start || a.end - b.end);
    const before = await annotationOf(tx, ctx.appId, id);
    if (before)
      await tx
        .update(documentAnnotations)
        .set({ spans: sorted, updatedAt: new Date() })
        .where(eq(documentAnnotations.id, before.id));
    else
      await tx
        .insert(documentAnnotations)
        .values({ appId: ctx.appId, documentId: id, spans: sorted, createdBy: ctx.userId });
    await audit(tx, ctx, {
      action: 'annotation.save',
      entity: 'document_annotation',
      entityId: id,
      // Positions and labels only: the document's text stays where it is.
      before: before ? { spans: before.spans } : undefined,
      after: { spans: sorted },
    });
    return annotationDetail(tx, ctx.appId, id);
  });
}

export async function deleteAnnotation(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    await documentOf(tx, ctx.appId, id);
    const before = await annotationOf(tx, ctx.appId, id);
    if (!before) throw notFound('document_annotation');
    await tx.delete(documentAnnotations).where(eq(documentAnnotations.id, before.id));
    await trail.deleted(tx, ctx, id, { spans: before.spans });
    return true as const;
  });
}

const ratio = (a: number, b: number) => (b ? Number((a / b).toFixed(4)) : null);

/**
 * A cleaning rule against every annotated document of the app. A value the rule read matches a
 * marked span of the same label when the value's characters overlap it (each span matches once);
 * precision = matched / read, recall = matched spans / marked spans, per label and in total.
 */
export async function evaluateRule(
  db: Db,
  appId: number,
  locale: Locale,
  ruleRef: string,
): Promise<AnnotationEvaluation> {
  const { sources, compiled } = await resolveRules(db, appId, locale, [ruleRef], 'body.ruleRef');
  const source = sources[0]!;
  const outputs = source.definition.outputs.map((o) => ({ code: o.code, name: o.name }));
  const codes = new Set(outputs.map((o) => o.code));
  const rows = await db
    .select({ id: documents.id, body: documents.body, spans: documentAnnotations.spans })
    .from(documentAnnotations)
    .innerJoin(documents, eq(documents.id, documentAnnotations.documentId))
    .where(eq(documentAnnotations.appId, appId))
    .orderBy(asc(documents.id));
  const per = new Map(outputs.map((o) => [o.code, { predicted: 0, annotated: 0, matched: 0 }]));
  const misses: AnnotationEvaluation['misses'] = [];
  const miss = (m: AnnotationEvaluation['misses'][number]) => {
    if (misses.length < 50) misses.push(m);
  };
  for (const doc of rows) {
    const marked = spans.parse(doc.spans).filter((s) => codes.has(s.label));
    const used = new Set<number>();
    const read = cleanDocument(compiled, doc.body).extractions.filter((e) => codes.has(e.code));
    for (const e of read) {
      const s = per.get(e.code)!;
      s.predicted++;
      // Where the value stands (the systolic 150 of "BP 150/95"), else the whole match.
      const v = e.spans.find((x) => x.role === 'value') ?? { start: e.start, end: e.end };
      const hit = marked.findIndex(
        (m, i) => !used.has(i) && m.label === e.code && m.start < v.end && v.start < m.end,
      );
      if (hit >= 0) {
        used.add(hit);
        s.matched++;
      } else
        miss({
          documentId: doc.id,
          label: e.code,
          start: v.start,
          end: v.end,
          text: doc.body.slice(v.start, v.end),
          kind: 'falsePositive',
        });
    }
    marked.forEach((m, i) => {
      per.get(m.label)!.annotated++;
      if (!used.has(i))
        miss({
          documentId: doc.id,
          label: m.label,
          start: m.start,
          end: m.end,
          text: doc.body.slice(m.start, m.end),
          kind: 'falseNegative',
        });
    });
  }
  const labels = outputs.map((o) => {
    const s = per.get(o.code)!;
    return {
      label: o.code,
      name: o.name,
      ...s,
      precision: ratio(s.matched, s.predicted),
      recall: ratio(s.matched, s.annotated),
    };
  });
  const sum = (k: 'predicted' | 'annotated' | 'matched') => labels.reduce((a, l) => a + l[k], 0);
  const [predicted, annotated, matched] = [sum('predicted'), sum('annotated'), sum('matched')];
  const precision = ratio(matched, predicted);
  const recall = ratio(matched, annotated);
  return {
    ruleRef: source.ref,
    ruleName: source.name,
    documents: rows.length,
    labels,
    total: {
      predicted,
      annotated,
      matched,
      precision,
      recall,
      f1:
        precision !== null && recall !== null && precision + recall > 0
          ? Number(((2 * precision * recall) / (precision + recall)).toFixed(4))
          : null,
    },
    misses,
  };
}
