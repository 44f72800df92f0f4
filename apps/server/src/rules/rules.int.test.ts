import type { RuleDetail, RuleTestResult } from '@crdp/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAltResults, addRecord, demoUserWith } from '../clinical/test/support.js';
import { rowsOf } from '../db/rows.js';
import { apps, auditLog, notices, ruleResults } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { queueRulesAfterCollection } from './runs.js';

/**
 * The clinical rule engine: a data manager writes a rule over patients' attributes (the latest
 * ALT above a limit, with a diagnosis criterion or an age in an any-group), tries it on samples,
 * keeps their expected outcomes, publishes (a disagreeing sample needs a confirmation) and runs
 * it over all patients as a job that writes faults, tags and derived values. Checked on the
 * embedded database and on PostgreSQL.
 */
describe('clinical rules', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const ids: number[] = [];
  const call = (path: string, body: unknown, key = admin) => post(t.app, `/api/v0.1/rule/${path}`, body, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const rule = {
    name: 'ALT 升高的乙肝患者',
    description: '最近一次 ALT > 100 且（诊断乙肝或年满 60 岁）',
    when: {
      match: 'all',
      conditions: [
        { kind: 'attribute', attribute: 'latest lab.value where code = "ALT"', op: '>', value: 100 },
      ],
      groups: [
        {
          match: 'any',
          conditions: [
            { kind: 'criterion', criterion: { kind: 'diagnosis', codes: ['B18'] } },
            { kind: 'attribute', attribute: 'value patient.age', op: '>=', value: 60 },
          ],
        },
      ],
    },
    actions: [
      { kind: 'fault', level: 'warning', message: 'ALT 升高，请复查' },
      { kind: 'tag', tag: '肝功能异常' },
      { kind: 'derive', name: 'alt_high', value: 1 },
      { kind: 'notify', role: '系统管理员', message: '发现 ALT 升高的患者' },
    ],
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    // A reader: may list and try rules, not change them.
    reader = await demoUserWith(t.app, 'rulereader', ['DataQcClinicalRule.query', 'DataQcClinicalRule.get']);

    for (const [mrn, birth] of [
      ['R01', '1990-01-01'],
      ['R02', '1950-01-01'],
      ['R03', '1990-01-01'],
    ] as const) {
      const p = await post(
        t.app,
        '/api/v0.1/cdr/patients',
        { mrn, name: `规则病人${mrn}`, gender: 1, birthDate: birth },
        admin,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      ids.push(p.body.data.id);
    }
    const [a, b, c] = ids as [number, number, number];
    await record(a, 'diagnoses', {
      icd10: 'B18.1',
      name: '慢性乙型病毒性肝炎',
      diagnosedAt: '2021-05-01T08:00:00+08:00',
    });
    await addAltResults(t.app, admin, [
      [a, 60, '2020-01-01'],
      [a, 150, '2021-01-01'],
      [b, 180, '2022-01-01'],
      [c, 200, '2020-01-01'],
      [c, 40, '2023-01-01'],
    ]);
  }, 120_000);
  afterAll(() => t?.close());

  let saved: RuleDetail;

  it('lists attributes from the clinical data and searches them', async () => {
    // A value the cleaning area read from a note (written here directly) is an attribute too.
    const [a] = ids as [number];
    await record(a, 'documents', {
      kind: 'admission',
      title: '入院记录',
      body: '血压150/90mmHg',
      writtenAt: '2024-01-02T08:00:00+08:00',
    });
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    await t.app.db.execute(sql`insert into cleaned_values (app_id, rule_ref, patient_id, document_id, code, name, value_num, unit, sentence, sentence_start, span_start, span_end, observed_at)
      select ${demo!.appId}, 'builtin:bp', ${a}, d.id, 'SBP', '收缩压', 150, 'mmHg', '血压150/90mmHg', 0, 2, 5, d.written_at from documents d where d.patient_id = ${a}`);
    const cleaned = await call('conditional_retrieval_attribute', { keyword: '收缩压' });
    expect(cleaned.body.data.items[0]).toMatchObject({
      key: 'latest cleaned.value where name = "收缩压"',
      origin: 'cleaned',
    });
    const tried = await call('executethe_test_sample', {
      patient_id: a,
      when: {
        conditions: [
          {
            kind: 'attribute',
            attribute: 'latest cleaned.value where name = "收缩压"',
            op: '>=',
            value: 140,
          },
        ],
      },
    });
    expect(tried.body.data).toMatchObject({ fired: true, conditions: [{ actual: 150, holds: true }] });
    const all = await call('get_attribute_list', {});
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const keys = all.body.data.items.map((a: { key: string }) => a.key);
    expect(keys).toContain('latest lab.value where code = "ALT"');
    expect(keys).toContain('value patient.age');
    const found = await call('conditional_retrieval_attribute', { keyword: '氨基转移酶' });
    expect(found.body.data.items[0]).toMatchObject({ origin: 'lab', kind: 'number' });
    const targets = await call('action_retrieval_attribute', { keyword: '' });
    expect(targets.body.data.items).toContainEqual({ kind: 'role', key: '系统管理员', label: '系统管理员' });
  });

  it('saves a rule, audited, and lists it', async () => {
    const r = await call('saverule', rule);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    saved = r.body.data;
    expect(saved).toMatchObject({ status: 'draft', version: 0, conditions: 3 });
    const list = await call('rule_info_list', { keyword: 'ALT' });
    expect(list.body.data.items.map((i: { id: number }) => i.id)).toContain(saved.id);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'rule.save'), eq(auditLog.entityId, String(saved.id))));
    expect(audits.length).toBe(1);
  });

  it('explains each condition on a patient sample and on hand-made values', async () => {
    const [a, b, c] = ids as [number, number, number];
    const one = async (body: object) => {
      const r = await call('executethe_test_sample', { rule_id: saved.id, ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data as RuleTestResult;
    };
    const ra = await one({ patient_id: a });
    expect(ra.fired).toBe(true);
    expect(ra.conditions.map((x) => [x.path, x.actual, x.holds])).toEqual([
      ['c0', 150, true],
      ['g0.c0', null, true],
      ['g0.c1', expect.any(Number), false],
    ]);
    expect(ra.actions.length).toBe(4);
    expect((await one({ patient_id: b })).fired).toBe(true); // age ≥ 60
    const rc = await one({ patient_id: c }); // latest ALT 40
    expect(rc.fired).toBe(false);
    expect(rc.conditions[0]).toMatchObject({ actual: 40, holds: false });
    expect(rc.actions).toEqual([]);
    const hand = await one({
      attributes: { 'latest lab.value where code = "ALT"': 300, 'value patient.age': 70 },
    });
    expect(hand.fired).toBe(true);
    expect(hand.conditions[1]!.note).toBeTruthy();
    // A draft on screen, not saved yet: ALT > 160 leaves patient a out.
    const draft = await call('executethe_test_sample', {
      patient_id: a,
      when: { ...rule.when, conditions: [{ ...rule.when.conditions[0], value: 160 }] },
    });
    expect(draft.body.data.fired).toBe(false);
  });

  it('keeps samples, and a publish whose samples now disagree needs a confirmation', async () => {
    const [a, , c] = ids as [number, number, number];
    const s1 = await call('save_sample_result', {
      rule_id: saved.id,
      name: '乙肝 ALT 150',
      patient_id: a,
      expected_fired: true,
    });
    expect(s1.status, JSON.stringify(s1.body)).toBe(200);
    const s2 = await call('save_sample_result', {
      rule_id: saved.id,
      name: 'ALT 已恢复',
      patient_id: c,
      expected_fired: false,
    });
    expect(s2.status).toBe(200);
    const pub = await call('saverule', { ...rule, rule_id: saved.id, publish: true });
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect(pub.body.data).toMatchObject({ status: 'published', version: 1, samples: 2 });
    // Raising the limit to 160 makes sample 1 disagree.
    const stricter = {
      ...rule,
      rule_id: saved.id,
      when: { ...rule.when, conditions: [{ ...rule.when.conditions[0], value: 160 }] },
    };
    const reg = await call('regression', { rule_id: saved.id, when: stricter.when });
    expect(reg.body.data.disagreeing).toBe(1);
    const refused = await call('saverule', { ...stricter, publish: true });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('乙肝 ALT 150');
    expect((await call('rule_info', { rule_id: saved.id })).body.data.version).toBe(1);
    const confirmed = await call('saverule', { ...stricter, publish: true, confirm: true });
    expect(confirmed.body.data.version).toBe(2);
    const back = await call('saverule', { ...rule, rule_id: saved.id, publish: true });
    expect(back.body.data.version).toBe(3);
    const del = await call('delete_sample_result', { rule_id: saved.id, sample_id: s2.body.data.id });
    expect(del.status).toBe(200);
    const audits = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(inArray(auditLog.action, ['rule.sample.save', 'rule.sample.delete', 'rule.publish']));
    expect(audits.length).toBe(2 + 1 + 3);
  });

  it('runs over all patients as a job writing faults, tags, derived values and notices', async () => {
    const started = await call('run', { rule_ids: [saved.id] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await t.app.jobs.drain();
    const runs = await call('run_list', { rule_id: saved.id });
    expect(runs.body.data.items[0]).toMatchObject({ status: 'succeeded', results: 8 });
    const faults = await call('run_results', { run_id: started.body.data.runId, kind: 'fault' });
    expect(faults.body.data.items.map((r: { mrn: string }) => r.mrn).sort()).toEqual(['R01', 'R02']);
    const rows = await t.app.db
      .select()
      .from(ruleResults)
      .where(eq(ruleResults.runId, started.body.data.runId));
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['fault', 'tag', 'derive', 'notify']));
    const sent = await t.app.db
      .select()
      .from(notices)
      .where(sql`${notices.title} like '%ALT 升高的乙肝患者%'`);
    expect(sent.length).toBeGreaterThan(0);
    const finish = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'rule.run.finish'));
    expect(finish.length).toBe(1);
    // Scoped to criteria: only the hepatitis B patient.
    const scoped = await call('run', {
      rule_ids: [saved.id],
      scope: { kind: 'criteria', criteria: { inclusion: [{ kind: 'diagnosis', codes: ['B18'] }] } },
    });
    await t.app.jobs.drain();
    const only = await call('run_results', { run_id: scoped.body.data.runId, kind: 'fault' });
    expect(only.body.data.items.map((r: { mrn: string }) => r.mrn)).toEqual(['R01']);
    // After a collection run: the published rules run over the patients it changed (here R02 only).
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    const appId = demo!.appId;
    const task = rowsOf<{ id: number }>(
      await t.app.db.execute(
        sql`insert into collection_tasks (app_id, name, template_ids) values (${appId}, '规则测试采集', '[]') returning id`,
      ),
    )[0]!;
    const crun = rowsOf<{ id: number }>(
      await t.app.db.execute(
        sql`insert into collection_runs (app_id, task_id, status) values (${appId}, ${task.id}, 'succeeded') returning id`,
      ),
    )[0]!;
    await t.app.db.execute(sql`insert into collection_changes (app_id, run_id, template_id, table_name, record_id, patient_id, op)
      values (${appId}, ${crun.id}, 0, 'lab_results', 1, ${ids[1]}, 'insert')`);
    const queued = await queueRulesAfterCollection(t.app.db, appId, crun.id, null);
    expect(queued).not.toBeNull();
    await t.app.jobs.drain();
    const after = await call('run_results', { run_id: queued!.runId, kind: 'fault' });
    expect(after.body.data.items.map((r: { mrn: string }) => r.mrn)).toEqual(['R02']);
  });

  it('refuses bad input with a 400 naming the field, changing nothing', async () => {
    const before = (await call('rule_info_list', {})).body.data.total;
    const cases: [object, string][] = [
      [
        {
          ...rule,
          when: { conditions: [{ kind: 'attribute', attribute: 'latest lab.nope', op: '>', value: 1 }] },
        },
        'body.when.conditions.0.attribute',
      ],
      [
        {
          ...rule,
          when: {
            conditions: [{ kind: 'attribute', attribute: 'value patient.age', op: '>', value: 'old' }],
          },
        },
        'body.when.conditions.0.value',
      ],
      [
        {
          ...rule,
          when: {
            conditions: [{ kind: 'attribute', attribute: 'value patient.age', op: 'contains', value: '6' }],
          },
        },
        'body.when.conditions.0.op',
      ],
      [{ ...rule, when: { conditions: [] } }, 'body.when.conditions'],
      [{ ...rule, actions: [] }, 'actions'],
      [
        {
          ...rule,
          when: {
            conditions: [
              {
                kind: 'attribute',
                attribute: 'latest lab.value where code = "ALT"',
                op: '>',
                value: 1,
                window: { side: 'after', ref: 't0', t0EventId: 99999 },
              },
            ],
          },
        },
        'body.when',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await call('saverule', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body), field).toContain(field);
    }
    const noSample = await call('executethe_test_sample', { rule_id: saved.id });
    expect(noSample.status).toBe(400);
    const twoKinds = await call('save_sample_result', {
      rule_id: saved.id,
      name: 'x',
      patient_id: ids[0],
      attributes: { a: 1 },
      expected_fired: true,
    });
    expect(twoKinds.status).toBe(400);
    expect((await call('rule_info_list', {})).body.data.total).toBe(before);
  });

  it('enforces each function on the server and keeps apps apart', async () => {
    expect((await call('rule_info_list', {}, reader)).status).toBe(200);
    expect(
      (await call('executethe_test_sample', { rule_id: saved.id, patient_id: ids[0] }, reader)).status,
    ).toBe(200);
    expect((await call('saverule', rule, reader)).status).toBe(403);
    expect(
      (
        await call(
          'save_sample_result',
          { rule_id: saved.id, name: 'x', patient_id: ids[0], expected_fired: true },
          reader,
        )
      ).status,
    ).toBe(403);
    expect((await call('delete_rule', { rule_id: saved.id }, reader)).status).toBe(403);
    expect((await call('run', { rule_ids: [saved.id] }, reader)).status).toBe(403);
    // Another hospital sees none of it and cannot reach it by id.
    expect((await call('rule_info_list', {}, other.key)).body.data.total).toBe(0);
    expect((await call('rule_info', { rule_id: saved.id }, other.key)).status).toBe(404);
    expect((await call('saverule', { ...rule, rule_id: saved.id }, other.key)).status).toBe(404);
    expect(
      (
        await call(
          'executethe_test_sample',
          { rule: saved.id, patient_id: ids[0], when: rule.when },
          other.key,
        )
      ).status,
    ).toBe(400);
    expect((await call('run', { rule_ids: [saved.id] }, other.key)).status).toBe(400);
    const del = await call('delete_rule', { rule_id: saved.id });
    expect(del.status).toBe(200);
    expect((await call('rule_info', { rule_id: saved.id })).status).toBe(404);
  });
});
