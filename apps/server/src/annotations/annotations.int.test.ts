import type { AnnotationEvaluation } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Annotation (标注管理): a person marks the blood pressures of three notes by hand, and the
 * built-in blood pressure rule is measured against the marks: what it read that nobody marked is
 * a false positive, a marked value it missed a false negative. Checked on both databases.
 */
describe('document annotation and a cleaning rule’s precision and recall', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const docs: number[] = [];
  const texts = [
    // The rule reads 120/80: both marked.
    '体格检查：血压120/80mmHg，心率78次/分。',
    // The rule reads 150/95; the annotator marked only the systolic value.
    '查体：BP 150/95 mmHg，神清。',
    // Nothing to read, and nothing marked: a labelled negative. A marked 收缩压 the rule misses.
    '患者自述在家测收缩压一百四十左右。',
  ];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'annotationreader', [
      'SystemAnnotation.query',
      'SystemAnnotation.get',
    ]);
    const p = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'AN01', name: '标注病人', gender: 1 },
      admin,
    );
    for (const [i, body] of texts.entries()) {
      const d = await post(
        t.app,
        `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
        {
          table: 'documents',
          row: {
            kind: 'progress',
            title: `病程记录${i + 1}`,
            body,
            writtenAt: `2024-05-0${i + 1}T10:00:00+08:00`,
          },
        },
        admin,
      );
      expect(d.status, JSON.stringify(d.body)).toBe(200);
      docs.push(d.body.data.id);
    }
  }, 120_000);
  afterAll(() => t?.close());

  const span = (doc: number, text: string, label: string) => {
    const start = texts[doc]!.indexOf(text);
    return { start, end: start + text.length, label };
  };

  it('offers the cleaning rules’ codes as labels and lists documents without names', async () => {
    const labels = await get(t.app, '/api/v0.1/annotations/labels', admin);
    const codes = labels.body.data.items.map((l: { code: string }) => l.code);
    expect(codes).toEqual(expect.arrayContaining(['SBP', 'DBP']));
    const list = await get(t.app, '/api/v0.1/annotations/documents?q=AN01&state=open', admin);
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(3);
    expect(JSON.stringify(list.body.data)).not.toContain('标注病人');
  });

  it('saves spans, refuses bad ones naming the field, and audits', async () => {
    const ok = await put(
      t.app,
      `/api/v0.1/annotations/documents/${docs[0]}`,
      { spans: [span(0, '120', 'SBP'), span(0, '80', 'DBP')] },
      admin,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.spans).toHaveLength(2);
    await put(t.app, `/api/v0.1/annotations/documents/${docs[1]}`, { spans: [span(1, '150', 'SBP')] }, admin);
    await put(
      t.app,
      `/api/v0.1/annotations/documents/${docs[2]}`,
      { spans: [span(2, '一百四十', 'SBP')] },
      admin,
    );
    const past = await put(
      t.app,
      `/api/v0.1/annotations/documents/${docs[0]}`,
      { spans: [{ start: 0, end: 999, label: 'SBP' }] },
      admin,
    );
    expect(past.status).toBe(400);
    expect(past.body.field).toBe('body.spans.0.end');
    const unknown = await put(
      t.app,
      `/api/v0.1/annotations/documents/${docs[0]}`,
      { spans: [{ start: 0, end: 2, label: 'NOPE' }] },
      admin,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('body.spans.0.label');
    const backwards = await put(
      t.app,
      `/api/v0.1/annotations/documents/${docs[0]}`,
      { spans: [{ start: 5, end: 2, label: 'SBP' }] },
      admin,
    );
    expect(backwards.status).toBe(400);
    // Unchanged after the refusals.
    expect(
      (await get(t.app, `/api/v0.1/annotations/documents/${docs[0]}`, admin)).body.data.spans,
    ).toHaveLength(2);
    const rows = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'annotation.save'), eq(auditLog.entityId, String(docs[0]))));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]!.after)).not.toContain('血压');
  });

  it('measures the blood pressure rule against the marks', async () => {
    const r = await post(
      t.app,
      '/api/v0.1/annotations/evaluate',
      { ruleRef: 'builtin:blood_pressure' },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const e = r.body.data as AnnotationEvaluation;
    expect(e.documents).toBe(3);
    const sbp = e.labels.find((l) => l.label === 'SBP')!;
    const dbp = e.labels.find((l) => l.label === 'DBP')!;
    // SBP: read 120 and 150, both marked; 一百四十 marked and missed.
    expect(sbp).toMatchObject({ predicted: 2, annotated: 3, matched: 2, precision: 1, recall: 0.6667 });
    // DBP: read 80 and 95 (a pair's value span is the pair); only 80 marked.
    expect(dbp).toMatchObject({ predicted: 2, annotated: 1, matched: 1, precision: 0.5, recall: 1 });
    expect(e.total).toMatchObject({
      predicted: 4,
      annotated: 4,
      matched: 3,
      precision: 0.75,
      recall: 0.75,
      f1: 0.75,
    });
    expect(e.misses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'DBP', text: '150/95', kind: 'falsePositive' }),
        expect.objectContaining({ label: 'SBP', text: '一百四十', kind: 'falseNegative' }),
      ]),
    );
    const bad = await post(t.app, '/api/v0.1/annotations/evaluate', { ruleRef: 'builtin:nope' }, admin);
    expect(bad.status).toBe(400);
  });

  it('lets a reader look but not mark, and hides the documents from another hospital', async () => {
    expect((await get(t.app, `/api/v0.1/annotations/documents/${docs[0]}`, reader)).status).toBe(200);
    expect(
      (await put(t.app, `/api/v0.1/annotations/documents/${docs[0]}`, { spans: [] }, reader)).status,
    ).toBe(403);
    expect((await get(t.app, `/api/v0.1/annotations/documents/${docs[0]}`, other.key)).status).toBe(404);
    expect(
      (await put(t.app, `/api/v0.1/annotations/documents/${docs[0]}`, { spans: [] }, other.key)).status,
    ).toBe(404);
    expect((await del(t.app, `/api/v0.1/annotations/documents/${docs[2]}`, admin)).status).toBe(200);
    expect(
      (await get(t.app, '/api/v0.1/annotations/documents?state=annotated&q=AN01', admin)).body.data.total,
    ).toBe(2);
  });
});
