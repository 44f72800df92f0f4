import {
  type CleaningRuleInput,
  cleanDocument,
  cleanSentence,
  type Extraction,
  type Locale,
  type markBody,
  type ParagraphResult,
  type SampleResult,
  type SentenceTestResult,
  type sampleBody,
} from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { cleaningMarks, documents } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { defaultRefs, resolveRules } from './rules.js';

/**
 * Trying rules before a task runs them: typed sentences (sentence-test, many-sentence-test,
 * reg_text), a pasted document by sections (paragraph-clean), and a sample of the CDR's documents
 * whose extractions a person marks correct or not (many-test), with each rule's precision.
 */

type Choice = { rules: string[]; draft: CleaningRuleInput | null };

async function rulesFor(db: Db, appId: number, locale: Locale, c: Choice) {
  const refs = c.rules.length || c.draft ? c.rules : await defaultRefs(db, appId);
  return resolveRules(db, appId, locale, refs, 'body.rules', c.draft as never);
}

export async function testSentences(
  ctx: SignedIn,
  body: Choice & { sentences: string[] },
): Promise<SentenceTestResult> {
  const { compiled } = await rulesFor(ctx.db, ctx.appId, ctx.locale, body);
  return { items: body.sentences.map((text) => ({ text, extractions: cleanSentence(compiled, text) })) };
}

export async function cleanParagraph(
  ctx: SignedIn,
  body: Choice & { text: string },
): Promise<ParagraphResult> {
  const { compiled } = await rulesFor(ctx.db, ctx.appId, ctx.locale, body);
  const r = cleanDocument(compiled, body.text);
  return {
    sections: r.sections.map((s) => ({ ...s, text: body.text.slice(s.start, s.end) })),
    extractions: r.extractions,
  };
}

const markKey = (documentId: number, ruleRef: string, code: string, start: number) =>
  `${documentId}|${ruleRef}|${code}|${start}`;

/**
 * A sample of the app's documents (the same seed draws the same ones), each cleaned by the rules,
 * with the marks already given, and per rule: extracted, marked, correct and precision.
 */
export async function sampleTest(ctx: SignedIn, body: z.output<typeof sampleBody>): Promise<SampleResult> {
  const { sources, compiled } = await resolveRules(ctx.db, ctx.appId, ctx.locale, body.rules, 'body.rules');
  const kinds = body.kinds.length ? body.kinds : null;
  const docs = rowsOf<{
    id: number | string;
    patient_id: number | string;
    kind: string;
    title: string;
    body: string;
    written_at: string | Date;
  }>(
    await ctx.db.execute(sql`select id, patient_id, kind, title, body, written_at from documents
      where app_id = ${ctx.appId}
        ${
          kinds
            ? sql`and kind in (${sql.join(
                kinds.map((k) => sql`${k}`),
                sql`, `,
              )})`
            : sql``
        }
      order by md5(id::text || ${String(body.seed)}), id
      limit ${body.size}`),
  );
  const ids = docs.map((d) => Number(d.id));
  const marks = new Map<string, boolean>();
  if (ids.length) {
    const rows = await ctx.db
      .select()
      .from(cleaningMarks)
      .where(
        and(
          eq(cleaningMarks.appId, ctx.appId),
          sql`${cleaningMarks.documentId} in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        ),
      );
    for (const m of rows) marks.set(markKey(m.documentId, m.ruleRef, m.code, m.spanStart), m.correct);
  }
  const stats = new Map(sources.map((s) => [s.ref, { extracted: 0, marked: 0, correct: 0 }]));
  const out = docs.map((d) => {
    const extractions = cleanDocument(compiled, d.body).extractions.map((e: Extraction) => {
      const mark = marks.get(markKey(Number(d.id), e.ruleRef, e.code, e.start)) ?? null;
      const s = stats.get(e.ruleRef)!;
      s.extracted++;
      if (mark !== null) {
        s.marked++;
        if (mark) s.correct++;
      }
      return { ...e, mark };
    });
    return {
      documentId: Number(d.id),
      patientId: Number(d.patient_id),
      kind: d.kind,
      title: d.title,
      writtenAt: new Date(d.written_at).toISOString(),
      text: d.body,
      extractions,
    };
  });
  return {
    documents: out,
    precision: sources.map((s) => {
      const st = stats.get(s.ref)!;
      return {
        ruleRef: s.ref,
        ruleName: s.name,
        ...st,
        precision: st.marked ? Number((st.correct / st.marked).toFixed(4)) : null,
      };
    }),
  };
}

/** Marks one extraction of a sample correct or not (null clears the mark); audited. */
export async function markExtraction(ctx: SignedIn, body: z.output<typeof markBody>) {
  return ctx.db.transaction(async (tx) => {
    const [doc] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.id, body.documentId), eq(documents.appId, ctx.appId)));
    if (!doc) throw notFound('document');
    const where = and(
      eq(cleaningMarks.appId, ctx.appId),
      eq(cleaningMarks.documentId, body.documentId),
      eq(cleaningMarks.ruleRef, body.ruleRef),
      eq(cleaningMarks.code, body.code),
      eq(cleaningMarks.spanStart, body.start),
    );
    const [before] = await tx.select().from(cleaningMarks).where(where);
    if (body.correct === null) await tx.delete(cleaningMarks).where(where);
    else if (before)
      await tx
        .update(cleaningMarks)
        .set({ correct: body.correct, markedBy: ctx.userId, markedAt: new Date() })
        .where(where);
    else
      await tx.insert(cleaningMarks).values({
        appId: ctx.appId,
        documentId: body.documentId,
        ruleRef: body.ruleRef,
        code: body.code,
        spanStart: body.start,
        correct: body.correct,
        markedBy: ctx.userId,
      });
    await audit(tx, ctx, {
      action: 'upsert',
      entity: 'cleaning_mark',
      entityId: `${body.documentId}:${body.ruleRef}:${body.code}:${body.start}`,
      before: before ? { correct: before.correct } : null,
      after: { correct: body.correct },
    });
    return { correct: body.correct };
  });
}
