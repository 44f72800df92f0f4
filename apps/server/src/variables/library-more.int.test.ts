import type { TemplateApplied, Variable, VariableSet, VariableTransferRun } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecord, demoUserWith } from '../clinical/test/support.js';
import { apps, auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import {
  del,
  download,
  get,
  patch as patchAs,
  post,
  signIn,
  startTestApp,
  type TestApp,
} from '../test/helper.js';
import { variablesOfSet } from './sets.js';
import { templateVariables } from './templates.js';
import { transformValue } from './transfers.js';

/**
 * The rest of the variable library: a researcher writes one template ("first/max/mean of a lab
 * item within 30 days of the first visit"), applies it to two lab items, builds a group template
 * and a batch of groups from it, collects a variable set for a study, and maps the set's ALT
 * variables to another model's codes (U/L to µkat/L) with a transfer rule run as a job.
 * Checked on the embedded database and on PostgreSQL.
 */
describe('variable templates, sets and transfers', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  let templateId: number;
  let applied: TemplateApplied;
  let setId: number;
  let ruleId: number;
  const patch = (url: string, payload: object, key = admin) => patchAs(t.app, url, payload, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'templatereader', ['VariableTemplate.query', 'VariableSet.query']);
    const ids: number[] = [];
    for (const mrn of ['VT1', 'VT2']) {
      const p = await post(
        t.app,
        '/api/v0.1/cdr/patients',
        { mrn, name: `模板病人${mrn}`, gender: 1 },
        admin,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      ids.push(p.body.data.id);
    }
    const [a, b] = ids as [number, number];
    await record(a, 'visits', { kind: 'outpatient', admitAt: '2024-01-01T08:00:00Z' });
    await record(b, 'visits', { kind: 'outpatient', admitAt: '2024-03-01T08:00:00Z' });
    for (const [p, code, v, d] of [
      [a, 'ALT', 40, '2024-01-05'],
      [a, 'ALT', 90, '2024-01-20'],
      [b, 'ALT', 60, '2024-03-10'],
      [a, 'AST', 30, '2024-01-06'],
    ] as const)
      await record(p, 'labResults', {
        itemCode: code,
        itemName: code,
        valueNum: v,
        unit: 'U/L',
        collectedAt: `${d}T08:00:00Z`,
      });
  }, 120_000);
  afterAll(() => t?.close());

  it('names template variables by prefix, item, aggregate and window, in both languages', () => {
    const made = templateVariables(
      {
        source: 'lab',
        codePrefix: 'liver',
        aggregates: ['first', 'max'],
        anchor: 'first_visit',
        t0EventId: null,
        withinDays: 30,
        unit: 'U/L',
      },
      [{ code: 'ALT-1', labelZh: '丙氨酸氨基转移酶', labelEn: 'ALT' }],
    );
    expect(made.map((m) => m.code)).toEqual(['liver_alt_1_first_30d', 'liver_alt_1_max_30d']);
    expect(made[1]).toMatchObject({
      labelZh: '丙氨酸氨基转移酶最大值（首次就诊后 30 天内）',
      labelEn: 'Maximum ALT (within 30 days after the first visit)',
      derivation: { kind: 'lab', itemCode: 'ALT-1', aggregate: 'max', withinDays: 30 },
    });
    expect(
      transformValue(
        {
          sourceVariableId: 1,
          targetCode: 'X',
          transform: 'linear',
          factor: 0.0167,
          offset: 0,
          valueMap: [],
        },
        '90',
      ),
    ).toBe('1.503');
    expect(
      transformValue(
        { sourceVariableId: 1, targetCode: 'X', transform: 'linear', factor: 2, offset: 0, valueMap: [] },
        'n/a',
      ),
    ).toBeNull();
  });

  it('applies a template to two lab items and reuses codes the app already has', async () => {
    const made = await post(
      t.app,
      '/api/v0.1/variable-templates',
      {
        name: '肝功能 30 天',
        spec: {
          source: 'lab',
          codePrefix: 'liver',
          aggregates: ['first', 'max', 'mean'],
          withinDays: 30,
          unit: 'U/L',
        },
      },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    templateId = made.body.data.id;
    const r = await post(
      t.app,
      `/api/v0.1/variable-templates/${templateId}/apply`,
      {
        items: [
          { code: 'ALT', labelZh: 'ALT' },
          { code: 'AST', labelZh: 'AST' },
        ],
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    applied = r.body.data;
    expect(applied.created.map((v) => v.code)).toEqual([
      'liver_alt_first_30d',
      'liver_alt_max_30d',
      'liver_alt_mean_30d',
      'liver_ast_first_30d',
      'liver_ast_max_30d',
      'liver_ast_mean_30d',
    ]);
    const maxAlt = applied.created[1]!;
    expect(maxAlt.ruleText).toBe('max lab.value where code = "ALT" after first_visit within 30 days');
    expect(
      (await get(t.app, `/api/v0.1/variables/${maxAlt.id}/distribution`, admin)).body.data,
    ).toMatchObject({
      present: 2,
      min: 60,
      max: 90,
    });
    // Applying again makes nothing twice.
    const again = await post(
      t.app,
      `/api/v0.1/variable-templates/${templateId}/apply`,
      { items: [{ code: 'ALT' }] },
      admin,
    );
    expect(again.body.data.created).toEqual([]);
    expect(again.body.data.existing).toEqual([
      'liver_alt_first_30d',
      'liver_alt_max_30d',
      'liver_alt_mean_30d',
    ]);
    const rows = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'variableTemplate.apply'), eq(auditLog.entityId, String(templateId))));
    expect(rows.length).toBe(2);
  });

  it('refuses bad templates and items with a 400 naming the field, and other people', async () => {
    const bad = await post(
      t.app,
      '/api/v0.1/variable-templates',
      { name: 'x', spec: { source: 'lab', codePrefix: '9bad', aggregates: ['max'] } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('codePrefix');
    const t0 = await post(
      t.app,
      '/api/v0.1/variable-templates',
      { name: 'y', spec: { source: 'lab', codePrefix: 'y', aggregates: ['max'], anchor: 't0' } },
      admin,
    );
    expect(t0.status).toBe(400);
    expect(JSON.stringify(t0.body)).toContain('body.spec.t0EventId');
    const quote = await post(
      t.app,
      `/api/v0.1/variable-templates/${templateId}/apply`,
      { items: [{ code: 'A"LT' }] },
      admin,
    );
    expect(quote.status).toBe(400);
    const nul = await post(t.app, '/api/v0.1/variable-templates', { name: 'a\u0000b', spec: {} }, admin);
    expect(nul.status).toBe(400);
    // A reader lists templates but may not apply them; another hospital does not see them.
    expect((await get(t.app, '/api/v0.1/variable-templates', reader)).status).toBe(200);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/variable-templates/${templateId}/apply`,
          { items: [{ code: 'ALT' }] },
          reader,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/variable-templates/${templateId}/apply`,
          { items: [{ code: 'ALT' }] },
          other.key,
        )
      ).status,
    ).toBe(404);
  });

  it('makes one group from a group template and one group per item in a batch', async () => {
    const gt = await post(
      t.app,
      '/api/v0.1/variable-group-templates',
      { name: '肝功能组', templateIds: [templateId] },
      admin,
    );
    expect(gt.status, JSON.stringify(gt.body)).toBe(200);
    const one = await post(
      t.app,
      `/api/v0.1/variable-group-templates/${gt.body.data.id}/apply`,
      { groupName: '肝功能全部', items: [{ code: 'ALT' }, { code: 'AST' }] },
      admin,
    );
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data.groups[0].variables).toHaveLength(6);
    const batch = await post(
      t.app,
      '/api/v0.1/variable-batch-groups',
      { groupTemplateId: gt.body.data.id, namePrefix: '肝功能-', items: [{ code: 'ALT' }, { code: 'AST' }] },
      admin,
    );
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.data.groups.map((g: { name: string }) => g.name)).toEqual(['肝功能-ALT', '肝功能-AST']);
    expect(batch.body.data.groups[0].variables.map((v: Variable) => v.code)).toEqual([
      'liver_alt_first_30d',
      'liver_alt_max_30d',
      'liver_alt_mean_30d',
    ]);
    // The same batch again clashes on the group name and names the item.
    const twice = await post(
      t.app,
      '/api/v0.1/variable-batch-groups',
      { groupTemplateId: gt.body.data.id, namePrefix: '肝功能-', items: [{ code: 'ALT' }] },
      admin,
    );
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('body.items.0');
    // A template a group template uses is not deleted.
    expect((await del(t.app, `/api/v0.1/variable-templates/${templateId}`, admin)).status).toBe(400);
  });

  it('collects a variable set from variables and groups, read by other areas through variablesOfSet', async () => {
    const groups = (await get(t.app, '/api/v0.1/variable-groups', admin)).body.data.items as Array<{
      id: number;
      name: string;
    }>;
    const ast = groups.find((g) => g.name === '肝功能-AST')!;
    const maxAlt = applied.created[1]!;
    const r = await post(
      t.app,
      '/api/v0.1/variable-sets',
      { name: '肝病研究变量', variableIds: [maxAlt.id], groupIds: [ast.id] },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const set = r.body.data as VariableSet;
    setId = set.id;
    expect(set.variables.map((v) => v.code)).toEqual([
      'liver_alt_max_30d',
      'liver_ast_first_30d',
      'liver_ast_max_30d',
      'liver_ast_mean_30d',
    ]);
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    const full = await variablesOfSet(t.app.db, demo!.appId, setId);
    expect(full[0]!.derivation).toMatchObject({ kind: 'lab', itemCode: 'ALT', aggregate: 'max' });
    await expect(variablesOfSet(t.app.db, other.appId, setId)).rejects.toThrow();
    expect((await get(t.app, '/api/v0.1/variable-sets', reader)).body.data.items.length).toBeGreaterThan(0);
    expect((await post(t.app, '/api/v0.1/variable-sets', { name: 'x' }, reader)).status).toBe(403);
    const missing = await post(t.app, '/api/v0.1/variable-sets', { name: 'y', groupIds: [999999] }, admin);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('body.groupIds.0');
    const renamed = await patch(`/api/v0.1/variable-sets/${setId}`, { description: '第二版' });
    expect(renamed.body.data.variables).toHaveLength(4);
  });

  it('runs a transfer rule as a job: U/L to µkat/L, with a CSV of the values', async () => {
    const maxAlt = applied.created[1]!;
    const r = await post(
      t.app,
      '/api/v0.1/variable-transfer-rules',
      {
        name: 'ALT 换算到 SI',
        targetModel: 'SDTM LB',
        mappings: [
          { sourceVariableId: maxAlt.id, targetCode: 'LBSTRESN_ALT', transform: 'linear', factor: 0.0167 },
        ],
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    ruleId = r.body.data.id;
    expect(r.body.data.mappings[0].sourceCode).toBe('liver_alt_max_30d');
    // Disabled, it cannot run.
    expect(
      (await post(t.app, `/api/v0.1/variable-transfer-rules/${ruleId}/disable`, {}, admin)).body.data.enabled,
    ).toBe(false);
    const refused = await post(t.app, '/api/v0.1/variable-transfer-runs', { ruleId }, admin);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('body.ruleId');
    await post(t.app, `/api/v0.1/variable-transfer-rules/${ruleId}/enable`, {}, admin);
    const run = await post(t.app, '/api/v0.1/variable-transfer-runs', { ruleId }, admin);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    for (let i = 0; i < 100; i++) {
      await t.app.jobs.drain();
      const list = (await get(t.app, '/api/v0.1/variable-transfer-runs', admin)).body.data
        .items as VariableTransferRun[];
      if (list[0]?.status === 'succeeded') break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const [done] = (await get(t.app, '/api/v0.1/variable-transfer-runs', admin)).body.data
      .items as VariableTransferRun[];
    expect(done).toMatchObject({ status: 'succeeded', patients: 2, values: 2, ruleName: 'ALT 换算到 SI' });
    expect(done!.summary).toEqual([{ targetCode: 'LBSTRESN_ALT', converted: 2, unmapped: 0 }]);
    const csv = await download(t.app, `/api/v0.1/variable-transfer-runs/${done!.id}/values.csv`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('VT1,LBSTRESN_ALT,1.503');
    expect(csv.body).toContain('VT2,LBSTRESN_ALT,1.002');
    expect(csv.body).not.toContain('模板病人');
    // Bad mappings are 400s naming the mapping; another hospital's run is not there.
    const bad = await post(
      t.app,
      '/api/v0.1/variable-transfer-rules',
      { name: 'bad', mappings: [{ sourceVariableId: 999999, targetCode: 'X', transform: 'copy' }] },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('body.mappings.0.sourceVariableId');
    expect(
      (await get(t.app, `/api/v0.1/variable-transfer-runs/${done!.id}/values.csv`, other.key)).status,
    ).toBe(404);
    expect((await del(t.app, `/api/v0.1/variable-transfer-runs/${done!.id}`, admin)).status).toBe(200);
  });
});
