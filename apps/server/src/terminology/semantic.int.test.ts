import type { SemanticAnswer } from '@crdp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeAccessKey, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * `POST /api/terminology/semantic` (issue 19): a clinical phrase into concepts with spans —
 * jieba words, names, synonyms and abbreviations of the store, negation and the other
 * qualifiers of the cleaning engine. On the embedded database and on PostgreSQL when
 * DATABASE_URL is set.
 */
describe('terminology semantic service', () => {
  let t: TestApp;
  let admin: string;
  const S = '/api/terminology/semantic';
  const read = async (text: string, extra: Record<string, unknown> = {}, key = admin) => {
    const res = await post(t.app, S, { text, ...extra }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as SemanticAnswer;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  }, 120_000);
  afterAll(() => t?.close());

  it('finds concepts with spans, negation, uncertainty and time', async () => {
    const text = '否认高血压心脏病，疑似霍乱，3天前出现非胰岛素依赖型糖尿病。';
    const a = await read(text);
    expect(a.text).toBe(text);
    expect(a.tokens.slice(0, 3).map((w) => w.text)).toEqual(['否认', '高血压', '心脏病']);
    for (const w of a.tokens) expect(text.slice(w.start, w.end)).toBe(w.text);
    const found = a.concepts.map((c) => ({
      code: c.code,
      text: c.text,
      negated: c.negated,
      uncertain: c.uncertain,
      time: c.time,
    }));
    // The longest name wins: 高血压心脏病 (I11), not 高血压 inside it.
    expect(found).toEqual([
      { code: 'I11', text: '高血压心脏病', negated: true, uncertain: false, time: null },
      { code: 'A00', text: '霍乱', negated: false, uncertain: true, time: null },
      { code: 'E11', text: '非胰岛素依赖型糖尿病', negated: false, uncertain: false, time: '3天前' },
    ]);
    const i11 = a.concepts[0]!;
    expect(text.slice(i11.start, i11.end)).toBe('高血压心脏病');
    expect(i11.cues).toEqual([{ start: 0, end: 2, role: 'negation' }]);
    expect(a.concepts[2]!.timeDays).toBe(-3);
    expect((await read('未见霍乱。')).concepts[0]).toMatchObject({ code: 'A00', negated: true });
    expect((await read('无霍乱')).concepts[0]).toMatchObject({ code: 'A00', negated: true });
  });

  it('reads synonyms and abbreviations, and keeps to the systems asked for', async () => {
    const local = await post(
      t.app,
      '/api/v0.1/terminology/local-codes/disease',
      { parentCode: 'E11', code: 'E11.9x98', displayZh: '本院糖尿病足', synonyms: ['糖足'] },
      admin,
    );
    expect(local.status, JSON.stringify(local.body)).toBe(200);
    const a = await read('2型糖尿病，糖足');
    expect(a.concepts.map((c) => [c.code, c.text, c.matchedBy, c.matchedSynonym])).toEqual([
      ['E11', '2型糖尿病', 'abbreviation', null],
      ['E11.9x98', '糖足', 'synonym', '糖足'],
    ]);
    expect(a.concepts[1]!.local).toBe(true);
    expect((await read('2型糖尿病，糖足', { systems: ['LOINC'] })).concepts).toEqual([]);
    expect((await read('，。 ')).concepts).toEqual([]);
  });

  it('reads a note of the longest length allowed in one query', async () => {
    const text = '患者否认高血压心脏病，疑似霍乱。'.repeat(125);
    expect(text.length).toBe(2000);
    const began = Date.now();
    const a = await read(text);
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(a.concepts).toHaveLength(250);
    expect(a.concepts.filter((c) => c.negated).map((c) => c.code)).toEqual(Array(125).fill('I11'));
  });

  it('refuses bad input with a 400 naming the problem', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ text: '   ' }, /text/],
      [{}, /text/],
      [{ text: 'x'.repeat(2001) }, /text/],
      [{ text: '霍乱', systems: ['icd 10'] }, /systems/],
      [{ text: '霍乱', systems: [] }, /systems/],
      [{ text: '霍乱\u0000' }, /text/],
    ];
    for (const [body, field] of cases) {
      const res = await post(t.app, S, body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(`${res.body.field} ${res.body.message}`).toMatch(field);
    }
  });

  it('answers a free terminology link and the versioned path; nothing else', async () => {
    const term = await freeAccessKey(t.app, admin, { scopeKind: 'term', objectId: 'view' });
    expect((await read('霍乱', {}, term)).concepts[0]!.code).toBe('A00');
    const versioned = await post(t.app, '/api/v0.1/terminology/semantic', { text: '霍乱' }, term);
    expect(versioned.status).toBe(200);
    const crf = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: '1' });
    expect((await post(t.app, S, { text: '霍乱' }, crf)).status).toBe(403);
    expect((await post(t.app, S, { text: '霍乱' })).status).toBe(401);
  });
});
