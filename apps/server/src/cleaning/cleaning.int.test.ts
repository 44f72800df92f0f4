import type { CleaningRule, CleaningTask, SampleResult } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, cleanedValues } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { del, get, post, put, settleJob, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Data cleaning: a data manager writes a regex rule (a runaway pattern is refused with a 400
 * naming the field), tries rules on sentences and on a pasted admission note, marks a sample's
 * extractions, then runs a cleaning task over the CDR's notes that extracts blood pressure and
 * HBV-DNA; the values appear in the patient's view with their sentence and a disease-library
 * indicator reads 收缩压 from them. Rerun replaces, never doubles. Checked on the embedded
 * database and on PostgreSQL.
 */
describe('data cleaning', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let nobody: string;
  let patient: number;
  const audits = (entity: string) => t.app.db.select().from(auditLog).where(eq(auditLog.entity, entity));
  const note = (sbp: number, hbv: string) =>
    [
      '主诉：乏力1月。',
      `现病史：患者1月前无明显诱因出现乏力，3天前发热。外院查HBV-DNA ${hbv}。`,
      '既往史：否认高血压病史。',
      `体格检查：T 36.8℃，P 78次/分，血压${sbp}/80mmHg。双下肢无水肿。`,
    ].join('\n');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    nobody = await userWithoutRoles(t.app);
    const p = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'CL01', name: '清洗病人甲', gender: 1 },
      admin,
    );
    patient = p.body.data.id;
    for (const [title, body, at] of [
      ['入院记录', note(138, '1.2×10^5 IU/ml'), '2024-01-02T08:00:00+08:00'],
      ['出院小结', note(126, '1.2E+05 IU/mL'), '2024-01-10T08:00:00+08:00'],
      ['病程记录', '血压1300/80mmHg（录入错误）', '2024-01-05T08:00:00+08:00'],
    ] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/cdr/patients/${patient}/records`,
        {
          table: 'documents',
          row: { kind: title === '病程记录' ? 'progress' : 'admission', title, body, writtenAt: at },
        },
        admin,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('lists the built-in rules and refuses a member without a cleaning function', async () => {
    const r = await get(t.app, '/api/v0.1/cleaning/rules', admin);
    expect(r.status).toBe(200);
    const refs = (r.body.data.items as CleaningRule[]).map((x) => x.ref);
    expect(refs).toEqual(
      expect.arrayContaining(['builtin:blood_pressure', 'builtin:hbv_dna', 'builtin:alt']),
    );
    expect((await get(t.app, '/api/v0.1/cleaning/rules', nobody)).status).toBe(403);
    expect(
      (await post(t.app, '/api/v0.1/cleaning/test/sentences', { sentences: ['血压120/80mmHg'] }, nobody))
        .status,
    ).toBe(403);
    expect((await get(t.app, '/api/v0.1/cleaning/tasks', nobody)).status).toBe(403);
  });

  it('adds a regex rule, refuses a runaway or broken pattern with a 400 naming the field, and audits', async () => {
    const rule = {
      name: '空腹血糖',
      definition: {
        kind: 'regex',
        pattern: '空腹血糖[:：]?\\s?(?<v>\\d{1,2}(?:\\.\\d{1,2})?)\\s?(?<u>mmol/L)?',
        unitGroup: 'u',
        outputs: [{ code: 'GLU', name: '空腹血糖', unit: 'mmol/L', min: 1, max: 40, group: 'v' }],
      },
    };
    const bad = await post(
      t.app,
      '/api/v0.1/cleaning/rules',
      { ...rule, definition: { ...rule.definition, pattern: '空腹血糖(?<v>(\\d+)+)' } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.definition.pattern');
    const broken = await post(
      t.app,
      '/api/v0.1/cleaning/rules',
      { ...rule, definition: { ...rule.definition, pattern: '空腹血糖(?<v>\\d+' } },
      admin,
    );
    expect(broken.status).toBe(400);
    expect(broken.body.message).toContain('body.definition.pattern');
    const noGroup = await post(
      t.app,
      '/api/v0.1/cleaning/rules',
      { ...rule, definition: { ...rule.definition, pattern: '空腹血糖(?<x>\\d+)' } },
      admin,
    );
    expect(noGroup.status).toBe(400);
    expect(noGroup.body.message).toContain('(?<v>');
    const empty = await post(
      t.app,
      '/api/v0.1/cleaning/rules',
      { name: '', definition: rule.definition },
      admin,
    );
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('name');
    const before = (await audits('cleaning_rule')).length;
    expect(before).toBe(0);

    const made = await post(t.app, '/api/v0.1/cleaning/rules', rule, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const r = made.body.data as CleaningRule;
    expect(r.ref).toBe(`rule:${r.id}`);
    expect((await post(t.app, '/api/v0.1/cleaning/rules', rule, admin)).status).toBe(409);
    const tried = await post(
      t.app,
      '/api/v0.1/cleaning/test/sentences',
      { rules: [r.ref], sentences: ['空腹血糖：6.8mmol/L，餐后2小时血糖11.2'] },
      admin,
    );
    expect(tried.body.data.items[0].extractions).toMatchObject([{ code: 'GLU', value: 6.8, unit: 'mmol/L' }]);
    const off = await post(t.app, `/api/v0.1/cleaning/rules/${r.id}/enabled`, { enabled: false }, admin);
    expect(off.body.data.enabled).toBe(false);
    // Another app neither sees nor changes it.
    expect((await put(t.app, `/api/v0.1/cleaning/rules/${r.id}`, rule, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/cleaning/rules/${r.id}`, other.key)).status).toBe(404);
    const theirs = await get(t.app, '/api/v0.1/cleaning/rules', other.key);
    expect((theirs.body.data.items as CleaningRule[]).some((x) => x.id === r.id)).toBe(false);
    expect((await del(t.app, `/api/v0.1/cleaning/rules/${r.id}`, admin)).status).toBe(200);
    expect((await audits('cleaning_rule')).map((a) => a.action).sort()).toEqual([
      'create',
      'delete',
      'disable',
    ]);
  });

  it('tests sentences with the built-in rules and shows why (spans, negation, faults)', async () => {
    const r = await post(
      t.app,
      '/api/v0.1/cleaning/test/sentences',
      {
        rules: ['builtin:blood_pressure', 'builtin:hbv_dna', 'builtin:fever'],
        sentences: ['血压120/80mmHg', 'HBV-DNA 1.2×10^5 IU/ml', '否认发热', '血压400/80mmHg'],
      },
      admin,
    );
    expect(r.status).toBe(200);
    const [bp, hbv, fever, wrong] = r.body.data.items;
    expect(bp.extractions.map((e: { code: string; value: number }) => [e.code, e.value])).toEqual([
      ['SBP', 120],
      ['DBP', 80],
    ]);
    expect(bp.extractions[0].spans.map((s: { role: string }) => s.role)).toEqual([
      'trigger',
      'value',
      'unit',
    ]);
    expect(hbv.extractions[0]).toMatchObject({ value: 120000, unit: 'IU/mL' });
    expect(fever.extractions[0]).toMatchObject({ negated: true, value: 0 });
    expect(wrong.extractions[0]).toMatchObject({ value: 400, fault: 'out_of_range' });
    const unknown = await post(
      t.app,
      '/api/v0.1/cleaning/test/sentences',
      { rules: ['rule:999999'], sentences: ['x'] },
      admin,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('body.rules.0');
    const draft = await post(
      t.app,
      '/api/v0.1/cleaning/test/sentences',
      {
        sentences: ['x'],
        draft: {
          name: 'd',
          definition: {
            kind: 'regex',
            pattern: '(a|aa)+(?<v>\\d)',
            outputs: [{ code: 'X', name: 'x', group: 'v' }],
          },
        },
      },
      admin,
    );
    expect(draft.status).toBe(400);
    expect(draft.body.message).toContain('body.draft.definition.pattern');
  });

  it('cleans a pasted note by sections', async () => {
    const r = await post(t.app, '/api/v0.1/cleaning/test/paragraph', { text: note(130, '<20 IU/mL') }, admin);
    expect(r.status).toBe(200);
    expect(r.body.data.sections.map((s: { key: string }) => s.key)).toEqual([
      'chief_complaint',
      'present_illness',
      'past_history',
      'physical_exam',
    ]);
    const sbp = r.body.data.extractions.find((e: { code: string }) => e.code === 'SBP');
    expect(sbp).toMatchObject({ value: 130, section: 'physical_exam' });
    expect(r.body.data.extractions.find((e: { code: string }) => e.code === 'HBV_DNA')).toMatchObject({
      value: 20,
      comparator: '<',
    });
    expect((await post(t.app, '/api/v0.1/cleaning/test/paragraph', { text: '' }, admin)).status).toBe(400);
  });

  it('marks a sample and answers precision per rule', async () => {
    const body = { rules: ['builtin:blood_pressure'], size: 10, seed: 3 };
    const s = await post(t.app, '/api/v0.1/cleaning/test/sample', body, admin);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const data = s.body.data as SampleResult;
    expect(data.documents).toHaveLength(3);
    const all = data.documents.flatMap((d) => d.extractions.map((e) => ({ d, e })));
    expect(all).toHaveLength(6); // two notes × SBP + DBP, and the progress note's 1300/80
    const wrong = all.find((x) => x.e.value === 1300)!;
    const right = all.find((x) => x.e.value === 138)!;
    for (const [x, correct] of [
      [wrong, false],
      [right, true],
    ] as const) {
      const m = await put(
        t.app,
        '/api/v0.1/cleaning/test/marks',
        { documentId: x.d.documentId, ruleRef: x.e.ruleRef, code: x.e.code, start: x.e.start, correct },
        admin,
      );
      expect(m.status, JSON.stringify(m.body)).toBe(200);
    }
    const again = (await post(t.app, '/api/v0.1/cleaning/test/sample', body, admin)).body
      .data as SampleResult;
    expect(again.precision).toEqual([
      {
        ruleRef: 'builtin:blood_pressure',
        ruleName: '血压',
        extracted: 6,
        marked: 2,
        correct: 1,
        precision: 0.5,
      },
    ]);
    expect((await audits('cleaning_mark')).length).toBe(2);
    const foreign = await put(
      t.app,
      '/api/v0.1/cleaning/test/marks',
      {
        documentId: right.d.documentId,
        ruleRef: 'builtin:blood_pressure',
        code: 'SBP',
        start: 0,
        correct: true,
      },
      other.key,
    );
    expect(foreign.status).toBe(404);
  });

  it('runs a task over the notes, shows values with provenance, feeds a library indicator, reruns without doubling', async () => {
    const bad = await post(t.app, '/api/v0.1/cleaning/tasks', { name: 'x', rules: [] }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('rules');
    const backwards = await post(
      t.app,
      '/api/v0.1/cleaning/tasks',
      { name: 'x', rules: ['builtin:hbv_dna'], scope: { from: '2024-02-01', to: '2024-01-01' } },
      admin,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('body.scope.to');

    const made = await post(
      t.app,
      '/api/v0.1/cleaning/tasks',
      { name: '血压与病毒载量', rules: ['builtin:blood_pressure', 'builtin:hbv_dna'] },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = made.body.data as CleaningTask;
    expect(task.status).toBe('queued');
    const job = await settleJob(t.app, admin, task.jobId!);
    expect(job.status).toBe('succeeded');
    const done = (await get(t.app, `/api/v0.1/cleaning/tasks/${task.id}`, admin)).body.data as CleaningTask;
    expect(done).toMatchObject({ status: 'succeeded', documents: 3, values: 8, faults: 1 });

    const values = await get(t.app, `/api/v0.1/360/cleaned/${patient}?size=50`, admin);
    expect(values.status).toBe(200);
    const sbp = values.body.data.items.filter((v: { code: string }) => v.code === 'SBP');
    expect(sbp.map((v: { value: number }) => v.value).sort()).toEqual([126, 1300, 138]);
    const first = sbp.find((v: { value: number }) => v.value === 138);
    expect(first).toMatchObject({ documentTitle: '入院记录', section: 'physical_exam', unit: 'mmHg' });
    expect(first.sentence).toBe('T 36.8℃，P 78次/分，血压138/80mmHg。');
    expect(sbp.find((v: { value: number }) => v.value === 1300).fault).toBe('out_of_range');
    const hbv = values.body.data.items.filter((v: { code: string }) => v.code === 'HBV_DNA');
    expect(hbv.map((v: { value: number }) => v.value)).toEqual([120000, 120000]);
    expect((await get(t.app, `/api/v0.1/360/cleaned/${patient}`, other.key)).status).toBe(404);

    // A disease-library indicator reads 收缩压 from the notes: the latest value, the faulted 1300 left out.
    const ind = await post(
      t.app,
      '/api/v0.1/diseaselibrary/compute_indicator',
      {
        template_str: 'latest cleaned.value where name = "收缩压"',
        template_params: {},
        patient_ids: [patient],
      },
      admin,
    );
    expect(ind.status, JSON.stringify(ind.body)).toBe(200);
    expect(ind.body.data.values).toMatchObject([{ patientId: patient, value: 126 }]);
    const highest = await post(
      t.app,
      '/api/v0.1/diseaselibrary/compute_indicator',
      { template_str: 'max cleaned.value where code = "SBP"', template_params: {}, patient_ids: [patient] },
      admin,
    );
    expect(highest.body.data.values).toMatchObject([{ patientId: patient, value: 138 }]);

    // Rerun: the same values, not twice as many.
    const rerun = await post(t.app, `/api/v0.1/cleaning/tasks/${task.id}/rerun`, {}, admin);
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(200);
    await settleJob(t.app, admin, rerun.body.data.jobId);
    const rows = await t.app.db
      .select()
      .from(cleanedValues)
      .where(and(eq(cleanedValues.patientId, patient)));
    expect(rows).toHaveLength(8);
    const faults = await get(t.app, `/api/v0.1/cleaning/tasks/${task.id}/values?faultsOnly=true`, admin);
    expect(faults.body.data.total).toBe(1);
    // Cancelling an ended task is a conflict; deleting it removes its values.
    expect((await post(t.app, `/api/v0.1/cleaning/tasks/${task.id}/cancel`, {}, admin)).status).toBe(409);
    expect((await get(t.app, `/api/v0.1/cleaning/tasks/${task.id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/cleaning/tasks/${task.id}`, admin)).status).toBe(200);
    expect(
      await t.app.db.select().from(cleanedValues).where(eq(cleanedValues.patientId, patient)),
    ).toHaveLength(0);
    expect((await audits('cleaning_task')).map((a) => a.action)).toEqual(
      expect.arrayContaining(['create', 'status', 'delete']),
    );
  });

  it('cancels a queued task before it runs', async () => {
    await t.app.jobs.stop(); // nothing takes the job before the cancel
    const made = await post(
      t.app,
      '/api/v0.1/cleaning/tasks',
      { name: '取消', rules: ['builtin:alt'] },
      admin,
    );
    const c = await post(t.app, `/api/v0.1/cleaning/tasks/${made.body.data.id}/cancel`, {}, admin);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.data.status).toBe('cancelled');
    await t.app.jobs.drain();
    expect((await get(t.app, `/api/v0.1/cleaning/tasks/${made.body.data.id}`, admin)).body.data.status).toBe(
      'cancelled',
    );
  });
});
