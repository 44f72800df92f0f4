import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, auditLog } from '../../db/schema/index.js';
import { get, post, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { searchTextOf, tsqueryOf } from '../bigrams.js';
import { demoUserWith } from '../test/support.js';
import { searchInput, searchPatientsByConditions } from './search.js';

/**
 * A researcher looks for cirrhosis patients whose notes mention ascites (腹水) or a term of any
 * two Chinese characters, combined with lab ranges, gender and age, on generated patients.
 */
describe('multi-condition full-text search', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const job = await post(t.app, '/api/v0.1/cdr/synthetic', { patients: 60, seed: 3 }, admin);
    expect(job.status).toBe(200);
    await t.app.jobs.drain();
    const done = await get(t.app, `/api/v0.1/jobs/${job.body.data.id}`, admin);
    expect(done.body.data).toMatchObject({ status: 'succeeded', progress: 100 });
  });
  afterAll(async () => t.close());

  const search = (body: object, key = admin) => post(t.app, '/api/v0.1/fulltext/search', body, key);

  it('splits Chinese into bigrams, so any two-character term is found', () => {
    expect(searchTextOf('肝硬化腹水').split(' ')).toEqual(['肝硬', '硬化', '化腹', '腹水']);
    expect(tsqueryOf('腹水')).toBe("'腹水'");
    expect(tsqueryOf('肝硬化')).toBe("'肝硬' & '硬化'");
    expect(tsqueryOf('HBV-DNA')).toBe("'hbv':* & 'dna':*");
  });

  it('finds documents by two-character terms and marks the matches', async () => {
    for (const term of ['腹水', '黄染', '乏力', '甲胎']) {
      const r = await search({ text: term, size: 50 });
      expect(r.status, term).toBe(200);
      expect(r.body.data.items.length, term).toBeGreaterThan(0);
      for (const p of r.body.data.items) {
        const hit = p.documents[0].snippet.find((s: { hit: boolean }) => s.hit);
        expect(hit.text).toBe(term);
      }
    }
    // A bigram that crosses two words is not a hit unless the text has it.
    const none = await search({ text: '水肝' });
    expect(none.body.data.items).toEqual([]);
    expect(none.body.data).toMatchObject({ total: 0, nextCursor: null });
  });

  it('says on the first page how many patients match in all, and pages through exactly that many', async () => {
    const first = await search({ text: '肝功能', size: 3 });
    const total = first.body.data.total as number;
    expect(total).toBeGreaterThan(3);
    const seen = new Set<number>(first.body.data.items.map((p: { id: number }) => p.id));
    let cursor = first.body.data.nextCursor as string | null;
    while (cursor) {
      const next = await search({ text: '肝功能', size: 3, cursor: Number(cursor) });
      expect(next.body.data.total).toBeNull();
      for (const p of next.body.data.items) seen.add(p.id);
      cursor = next.body.data.nextCursor;
    }
    expect(seen.size).toBe(total);
  });

  it('counts up to a cap and says when more patients match than that (later pages are not counted)', async () => {
    const all = await search({ text: '肝功能', size: 3 });
    const total = all.body.data.total as number;
    expect(all.body.data.totalCapped).toBe(false);
    const appId = (
      await t.app.db.select({ appId: apps.appId }).from(apps).where(eq(apps.appShortName, 'DEMO'))
    )[0]!.appId;
    const q = searchInput.parse({ text: '肝功能', size: 3 });
    const capped = await searchPatientsByConditions(t.app.db, appId, q, false, total - 1);
    expect(capped).toMatchObject({ total: total - 1, totalCapped: true });
    // The page itself is the same: the cap only stops the count.
    expect(capped.items.map((p) => p.id)).toEqual(all.body.data.items.map((p: { id: number }) => p.id));
    const exact = await searchPatientsByConditions(t.app.db, appId, q, false, total);
    expect(exact).toMatchObject({ total, totalCapped: false });
    const later = await searchPatientsByConditions(
      t.app.db,
      appId,
      { ...q, cursor: Number(capped.nextCursor) },
      false,
      1,
    );
    expect(later).toMatchObject({ total: null, totalCapped: false });
  });

  it('combines conditions: diagnosis by name or ICD-10, lab range, gender, age, text', async () => {
    const cirrhosis = await search({ diagnosis: '肝硬化', size: 100 });
    const byCode = await search({ diagnosis: 'K74', size: 100 });
    expect(cirrhosis.body.data.items.length).toBeGreaterThan(0);
    expect(byCode.body.data.items.map((p: { id: number }) => p.id)).toEqual(
      cirrhosis.body.data.items.map((p: { id: number }) => p.id),
    );
    const both = await search({ diagnosis: '肝硬化', labs: [{ itemCode: 'ALB', max: 35 }], size: 100 });
    for (const p of both.body.data.items) {
      expect(p.diagnoses.join()).toContain('肝硬化');
      expect(p.labs[0].valueNum).toBeLessThanOrEqual(35);
    }
    expect(both.body.data.items.length).toBeLessThanOrEqual(cirrhosis.body.data.items.length);
    const women = await search({ gender: 2, ageMin: 40, ageMax: 60, text: '肝功能', size: 100 });
    for (const p of women.body.data.items) {
      expect(p.gender).toBe(2);
      expect(p.documents.length).toBeGreaterThan(0);
    }
  });

  it('refuses searches without conditions or with crossed ranges (400 naming the field)', async () => {
    const empty = await search({});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('diagnosis');
    expect(empty.body.message).toContain('请至少给出一个条件');
    const crossed = await search({ labs: [{ itemCode: 'ALT', min: 100, max: 10 }] });
    expect(crossed.status).toBe(400);
    expect(crossed.body.message).toContain('labs.0.min');
    expect(crossed.body.message).toContain('min 不能大于 max');
    const punct = await search({ text: '，。' });
    expect(punct.status).toBe(400);
    expect(punct.body.message).toContain('text');
    expect(punct.body.message).toContain('没有可检索的词');
  });

  it('exports the result as CSV, audited; without the export function it is 403', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/fulltext/export',
      headers: { WeAppAuthorization: admin },
      payload: { text: '腹水' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.split('\r\n')[0]).toContain('病案号');
    const rows = await t.app.db.select().from(auditLog);
    expect(rows.some((a) => a.action === 'export' && a.entity === 'patient_search')).toBe(true);
    const reader = await demoUserWith(t.app, 'reader', ['DataLakeFullTextRetrieval.query']);
    expect((await search({ text: '腹水' }, reader)).status).toBe(200);
    const denied = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/fulltext/export',
      headers: { WeAppAuthorization: reader },
      payload: { text: '腹水' },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('generates the same patients for the same seed', async () => {
    const a = await get(t.app, '/api/v0.1/360?size=3', admin);
    expect(a.body.data.items[0].mrn).toMatch(/^S3-/);
    const { generatePatient, emptyBatch } = await import('../synthetic/generate.js');
    const one = emptyBatch();
    const two = emptyBatch();
    let v = 0;
    generatePatient(3, 5, 1, { patientId: 1, nextVisitId: () => ++v }, one);
    v = 0;
    generatePatient(3, 5, 1, { patientId: 1, nextVisitId: () => ++v }, two);
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
  });
});
