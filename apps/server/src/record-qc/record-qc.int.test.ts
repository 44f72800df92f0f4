import type { RecordQcFault, RecordQcScore } from '@crdp/core';
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { download, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';

/**
 * Medical-record QC on synthetic inpatient visits: one whose admission note came late and lacks
 * sections, one discharged without a discharge summary, one complete. Checked on the embedded
 * database and on PostgreSQL.
 */
describe('medical-record QC', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const call = (path: string, body: unknown, key = admin) =>
    post(t.app, `/api/v0.1/record-qc/${path}`, body, key);
  const visitIds: number[] = [];
  const docIds: Record<string, number> = {};
  const FULL =
    '主诉：胸痛2天。\n现病史：患者2天前出现胸痛。\n既往史：高血压。\n体格检查：血压140/90mmHg。\n初步诊断：冠心病。';

  const addRecord = async (patient: number, table: string, row: object) => {
    const r = await post(t.app, `/api/v0.1/cdr/patients/${patient}/records`, { table, row }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'qcreader', [
      'RecordQcRule.query',
      'RecordQcPlan.query',
      'RecordQcTask.query',
    ]);

    const visits = [
      // Late admission note (30 h) without 既往史; discharge summary on time.
      { mrn: 'QC01', dept: '心内科', admit: '2024-03-01T08:00:00Z', discharge: '2024-03-05T08:00:00Z' },
      // Discharged without a discharge summary.
      { mrn: 'QC02', dept: '心内科', admit: '2024-03-02T08:00:00Z', discharge: '2024-03-06T08:00:00Z' },
      // Complete.
      { mrn: 'QC03', dept: '呼吸科', admit: '2024-03-03T08:00:00Z', discharge: '2024-03-07T08:00:00Z' },
    ];
    for (const v of visits) {
      const p = await post(
        t.app,
        '/api/v0.1/cdr/patients',
        { mrn: v.mrn, name: `质控病人${v.mrn}`, gender: 1 },
        admin,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      const pid = p.body.data.id as number;
      const visitId = await addRecord(pid, 'visits', {
        kind: 'inpatient',
        department: v.dept,
        admitAt: v.admit,
        dischargeAt: v.discharge,
      });
      visitIds.push(visitId);
      const at = (h: number, from = v.admit) => new Date(Date.parse(from) + h * 3_600_000).toISOString();
      const late = v.mrn === 'QC01';
      docIds[`${v.mrn}-admission`] = await addRecord(pid, 'documents', {
        visitId,
        kind: 'admission',
        title: '入院记录',
        body: late ? FULL.replace('既往史：高血压。\n', '') : FULL,
        writtenAt: at(late ? 30 : 6),
      });
      await addRecord(pid, 'documents', {
        visitId,
        kind: 'progress',
        title: '首次病程记录',
        body: '病例特点：胸痛。',
        writtenAt: at(4),
      });
      if (v.mrn !== 'QC02')
        docIds[`${v.mrn}-discharge`] = await addRecord(pid, 'documents', {
          visitId,
          kind: 'discharge',
          title: '出院记录',
          body: '出院诊断：冠心病。',
          writtenAt: at(10, v.discharge),
        });
    }
  }, 120_000);
  afterAll(() => t?.close());

  let planId: number;
  let taskId: number;

  it('lists the catalogue and saves a check’s parameters, audited; bad parameters are a 400 naming the field', async () => {
    const list = await call('rule/list', {});
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((r: { code: string }) => r.code)).toContain('admission_note_timely');
    const saved = await call('rule/save', {
      code: 'admission_note_timely',
      enabled: true,
      params: { hours: 24, points: 6 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.params).toEqual({ hours: 24, points: 6 });
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'recordQc.rule.edit'));
    expect(audited.length).toBe(1);

    const missing = await call('rule/save', {
      code: 'first_progress_timely',
      enabled: true,
      params: { points: 1 },
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('body.params.hours');
    const extra = await call('rule/save', {
      code: 'discharge_summary_present',
      enabled: true,
      params: { hours: 3, points: 1 },
    });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toContain('body.params.hours');
    const badHours = await call('rule/save', {
      code: 'admission_note_timely',
      enabled: true,
      params: { hours: -1, points: 1 },
    });
    expect(badHours.status).toBe(400);
    expect(JSON.stringify(badHours.body)).toContain('hours');
    // The copy-paste check is off for this app: a plan that names it does not run it.
    expect(
      (await call('rule/save', { code: 'progress_note_copied', enabled: false, params: { points: 2 } }))
        .status,
    ).toBe(200);
  });

  it('saves plans (audited) and refuses bad ones with the field named', async () => {
    const bad = await call('plan/save', { name: '三月', checks: [], departments: [] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('checks');
    const badDates = await call('plan/save', {
      name: '三月',
      checks: ['admission_note_timely'],
      admitFrom: '2024-04-01',
      admitTo: '2024-03-01',
    });
    expect(badDates.status).toBe(400);
    expect(JSON.stringify(badDates.body)).toContain('admitTo');
    const saved = await call('plan/save', {
      name: '2024 年 3 月住院病历',
      checks: [
        'admission_note_timely',
        'first_progress_timely',
        'discharge_summary_timely',
        'discharge_summary_present',
        'admission_note_sections',
        'progress_note_copied',
      ],
      admitFrom: '2024-03-01',
      admitTo: '2024-03-31',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    planId = saved.body.data.id;
    const renamed = await call('plan/save', {
      ...saved.body.data,
      id: planId,
      updatedAt: undefined,
      name: '三月病历',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await call('plan/list', {})).body.data.items.map((p: { name: string }) => p.name)).toContain(
      '三月病历',
    );
    const audited = await t.app.db.select().from(auditLog).where(like(auditLog.action, 'recordQc.plan.%'));
    expect(audited.map((a) => a.action).sort()).toEqual(['recordQc.plan.add', 'recordQc.plan.edit']);
  });

  it('runs the plan as a job and finds the late note, the missing sections and the missing summary', async () => {
    const started = await call('task/run', { plan_id: planId });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    taskId = started.body.data.taskId;
    await t.app.jobs.drain();
    const tasks = await call('task/list', {});
    const task = tasks.body.data.items.find((x: { id: number }) => x.id === taskId);
    expect(task).toMatchObject({ status: 'succeeded', visits: 3, faults: 3, progress: 100 });

    const faults = await call('task/faults', { task_id: taskId, size: 50 });
    expect(faults.status, JSON.stringify(faults.body)).toBe(200);
    const items = faults.body.data.items as RecordQcFault[];
    const got = items.map((f) => [f.check, f.visitId, f.documentId]).sort();
    expect(got).toEqual(
      [
        ['admission_note_sections', visitIds[0], docIds['QC01-admission']],
        ['admission_note_timely', visitIds[0], docIds['QC01-admission']],
        ['discharge_summary_present', visitIds[1], null],
      ].sort(),
    );
    const late = items.find((f) => f.check === 'admission_note_timely')!;
    expect(late.message).toContain('30');
    expect(late.points).toBe(6);
    expect(items.find((f) => f.check === 'admission_note_sections')!.message).toContain('既往史');

    const scores = await call('task/scores', { task_id: taskId });
    expect(scores.status).toBe(200);
    const byDept = Object.fromEntries(
      (scores.body.data.items as RecordQcScore[]).map((s) => [s.department, s]),
    );
    // 心内科: visit 1 loses 6 + 2, visit 2 loses 10 → (92 + 90) / 2 = 91.
    expect(byDept.心内科).toMatchObject({
      visits: 2,
      faultyVisits: 2,
      faults: 3,
      deducted: 18,
      score: 91,
    });
    expect(byDept.呼吸科).toMatchObject({ visits: 1, faults: 0, score: 100 });

    const csv = await download(t.app, `/api/v0.1/record-qc/task/export?task_id=${taskId}`, admin);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n').filter(Boolean).length).toBe(4);
    expect(csv.body).toContain('出院记录存在');
    const exported = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'recordQc.task.export'));
    expect(exported.length).toBe(1);
    const runAudit = await t.app.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ['recordQc.task.run', 'recordQc.task.finish']));
    expect(runAudit.length).toBe(2);
  });

  it('finds a late first progress note, a late discharge summary and a copied progress note', async () => {
    expect(
      (await call('rule/save', { code: 'progress_note_copied', enabled: true, params: { points: 2 } }))
        .status,
    ).toBe(200);
    const p = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'QC04', name: '质控病人QC04', gender: 2 },
      admin,
    );
    const pid = p.body.data.id as number;
    const visitId = await addRecord(pid, 'visits', {
      kind: 'inpatient',
      department: '神经科',
      admitAt: '2024-05-01T08:00:00Z',
      dischargeAt: '2024-05-04T08:00:00Z',
    });
    const doc = (kind: string, body: string, writtenAt: string) =>
      addRecord(pid, 'documents', { visitId, kind, title: kind, body, writtenAt });
    await doc('admission', FULL, '2024-05-01T10:00:00Z');
    await doc('progress', '患者头痛。', '2024-05-01T20:00:00Z'); // 12 h: late (limit 8 h)
    const copied = await doc('progress', ' 患者头痛。', '2024-05-02T09:00:00Z'); // the same text the next day
    await doc('progress', '患者头痛。', '2024-05-02T15:00:00Z'); // same day again: not counted
    const summary = await doc('discharge', '出院诊断：偏头痛。', '2024-05-06T08:00:00Z'); // 48 h after discharge
    const plan = await call('plan/save', {
      name: '神经科',
      checks: [
        'first_progress_timely',
        'discharge_summary_timely',
        'progress_note_copied',
        'admission_note_sections',
      ],
      departments: ['神经科'],
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const started = await call('task/run', { plan_id: plan.body.data.id });
    await t.app.jobs.drain();
    const faults = await call('task/faults', { task_id: started.body.data.taskId, size: 50 });
    const items = faults.body.data.items as RecordQcFault[];
    expect(items.map((f) => [f.check, f.documentId]).sort()).toEqual(
      [
        ['discharge_summary_timely', summary],
        ['first_progress_timely', expect.any(Number)],
        ['progress_note_copied', copied],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(items.find((f) => f.check === 'discharge_summary_timely')!.message).toContain('48');
    expect(items.find((f) => f.check === 'first_progress_timely')!.message).toContain('12');
  });

  it('checks consistency and the operation record, and scores per doctor, per document and per month; XLSX export', async () => {
    const patient = async (mrn: string) =>
      (await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `质控病人${mrn}`, gender: 1 }, admin)).body
        .data.id as number;
    // QC05: the operation record is 30 h late and names another operation; the discharge
    // diagnosis 肝细胞癌 is in no note (高血压 is, in the admission note).
    const p5 = await patient('QC05');
    const v5 = await addRecord(p5, 'visits', {
      kind: 'inpatient',
      department: '肝胆外科',
      doctor: '王主任',
      admitAt: '2024-06-01T08:00:00Z',
      dischargeAt: '2024-06-08T08:00:00Z',
    });
    const doc5 = (kind: string, body: string, writtenAt: string, author: string) =>
      addRecord(p5, 'documents', { visitId: v5, kind, title: kind, body, writtenAt, author });
    await doc5('admission', FULL.replace('高血压', '高血压病'), '2024-06-01T10:00:00Z', '李医生');
    await addRecord(p5, 'operations', {
      visitId: v5,
      code: '47.0100',
      name: '肝部分切除术',
      operatedAt: '2024-06-03T01:00:00Z',
      surgeon: '赵刀',
    });
    const opNote = await doc5(
      'operation',
      '手术名称：腹腔镜胆囊切除术。手术经过顺利。',
      '2024-06-04T07:00:00Z',
      '赵刀',
    );
    const summary5 = await doc5('discharge', '出院诊断：高血压。', '2024-06-08T10:00:00Z', '李医生');
    for (const [name, kind] of [
      ['肝细胞癌', 'discharge'],
      ['高血压', 'discharge'],
      ['乙型病毒性肝炎', 'secondary'],
    ])
      await addRecord(p5, 'diagnoses', { visitId: v5, name, kind, diagnosedAt: '2024-06-08T08:00:00Z' });
    // QC06: operated, no operation record at all (laid to the surgeon); its record names the
    // operation by code elsewhere, so nothing else is wrong.
    const p6 = await patient('QC06');
    const v6 = await addRecord(p6, 'visits', {
      kind: 'inpatient',
      department: '肝胆外科',
      doctor: '王主任',
      admitAt: '2024-07-01T08:00:00Z',
      dischargeAt: '2024-07-05T08:00:00Z',
    });
    await addRecord(p6, 'documents', {
      visitId: v6,
      kind: 'admission',
      title: '入院记录',
      body: FULL,
      writtenAt: '2024-07-01T09:00:00Z',
    });
    await addRecord(p6, 'operations', {
      visitId: v6,
      code: '51.2300',
      name: '腹腔镜胆囊切除术',
      operatedAt: '2024-07-02T01:00:00Z',
      surgeon: '钱刀',
    });
    await addRecord(p6, 'diagnoses', {
      visitId: v6,
      name: '冠心病',
      kind: 'main',
      diagnosedAt: '2024-07-05T08:00:00Z',
    });

    const plan = await call('plan/save', {
      name: '肝胆外科一致性',
      checks: [
        'admission_note_timely',
        'surgery_record_timely',
        'discharge_diagnosis_in_notes',
        'operation_record_matches',
      ],
      departments: ['肝胆外科'],
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const started = await call('task/run', { plan_id: plan.body.data.id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const task = started.body.data.taskId as number;
    await t.app.jobs.drain();
    const faults = await call('task/faults', { task_id: task, size: 50 });
    const items = faults.body.data.items as RecordQcFault[];
    expect(items.map((f) => [f.check, f.visitId, f.documentId, f.doctor]).sort()).toEqual(
      [
        ['discharge_diagnosis_in_notes', v5, summary5, '李医生'],
        ['operation_record_matches', v5, opNote, '赵刀'],
        ['surgery_record_timely', v5, opNote, '赵刀'],
        ['surgery_record_timely', v6, null, '钱刀'],
      ].sort(),
    );
    const msg = (check: string, visit: number) =>
      items.find((f) => f.check === check && f.visitId === visit)!.message;
    expect(msg('discharge_diagnosis_in_notes', v5)).toBe('出院诊断“肝细胞癌”未见于本次住院的任何病历记录');
    expect(msg('operation_record_matches', v5)).toBe('手术记录未写明编码的手术：47.0100 肝部分切除术');
    expect(msg('surgery_record_timely', v5)).toBe('手术记录在术后 30 小时完成，超过 24 小时');
    expect(msg('surgery_record_timely', v6)).toBe('手术后 24 小时内没有手术记录（腹腔镜胆囊切除术）');
    expect(items.find((f) => f.documentId === opNote)!.documentTitle).toBe('operation');

    // Per doctor: each stay a doctor answers for starts at 100 and loses the faults laid to them.
    const doctors = await call('task/doctors', { task_id: task });
    expect(doctors.status, JSON.stringify(doctors.body)).toBe(200);
    expect(doctors.body.data.items).toEqual([
      { doctor: '赵刀', visits: 1, faultyVisits: 1, faults: 2, deducted: 10, score: 90 },
      { doctor: '钱刀', visits: 1, faultyVisits: 1, faults: 1, deducted: 5, score: 95 },
      { doctor: '李医生', visits: 1, faultyVisits: 1, faults: 1, deducted: 3, score: 97 },
      // In charge of both stays (the second one's admission note names no author).
      { doctor: '王主任', visits: 2, faultyVisits: 0, faults: 0, deducted: 0, score: 100 },
    ]);
    const byDoctor = await call('task/faults', { task_id: task, doctor: '赵刀' });
    expect(byDoctor.body.data.total).toBe(2);

    // Per document: the worst first.
    const docs = await call('task/documents', { task_id: task });
    expect(docs.status, JSON.stringify(docs.body)).toBe(200);
    expect(docs.body.data.total).toBe(2);
    expect(
      docs.body.data.items.map((d: { documentId: number; author: string; faults: number; score: number }) => [
        d.documentId,
        d.author,
        d.faults,
        d.score,
      ]),
    ).toEqual([
      [opNote, '赵刀', 2, 90],
      [summary5, '李医生', 1, 97],
    ]);
    expect((await call('task/faults', { task_id: task, document_id: opNote })).body.data.total).toBe(2);

    // The trend: June's stay lost 13, July's 5.
    const trend = await call('task/trend', { task_id: task });
    expect(trend.status, JSON.stringify(trend.body)).toBe(200);
    expect(trend.body.data.items).toEqual([
      { period: '2024-06', visits: 1, faultyVisits: 1, faults: 3, score: 87 },
      { period: '2024-07', visits: 1, faultyVisits: 1, faults: 1, score: 95 },
    ]);
    expect((await call('task/trend', { task_id: task, department: '心内科' })).body.data.items).toEqual([]);
    expect(
      (await call('task/trend', { task_id: task, department: '肝胆外科' })).body.data.items,
    ).toHaveLength(2);
    expect((await call('task/trend', { task_id: task, department: 'x'.repeat(61) })).status).toBe(400);

    // XLSX beside CSV, with the doctor column.
    const xlsx = await download(t.app, `/api/v0.1/record-qc/task/export?task_id=${task}&format=xlsx`, admin);
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const sheet = (await readZip(xlsx.rawPayload)).get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('责任医师');
    expect(sheet).toContain('赵刀');
    expect(sheet).toContain('手术记录与手术编码一致');
    expect(sheet.match(/<row /g)?.length).toBe(5);
    const bad = await download(t.app, `/api/v0.1/record-qc/task/export?task_id=${task}&format=pdf`, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('format');
    // Other apps see none of it.
    expect((await call('task/doctors', { task_id: task }, other.key)).status).toBe(404);
    expect((await call('task/documents', { task_id: task }, other.key)).status).toBe(404);
    expect((await call('task/trend', { task_id: task }, other.key)).status).toBe(404);
  });

  it('checks permissions per action and keeps apps apart', async () => {
    expect((await call('rule/list', {}, reader)).status).toBe(200);
    expect((await call('task/list', {}, reader)).status).toBe(200);
    expect(
      (
        await call(
          'rule/save',
          { code: 'admission_note_timely', enabled: false, params: { hours: 24, points: 1 } },
          reader,
        )
      ).status,
    ).toBe(403);
    expect((await call('plan/save', { name: 'x', checks: ['admission_note_timely'] }, reader)).status).toBe(
      403,
    );
    expect((await call('task/run', { plan_id: planId }, reader)).status).toBe(403);
    expect((await call('task/faults', { task_id: taskId }, reader)).status).toBe(403);
    expect((await call('plan/delete', { id: planId }, reader)).status).toBe(403);

    // Another app sees none of this app's plans, tasks or faults, and has its own switches.
    expect((await call('plan/list', {}, other.key)).body.data.items).toEqual([]);
    expect((await call('task/list', {}, other.key)).body.data.items).toEqual([]);
    expect((await call('task/faults', { task_id: taskId }, other.key)).status).toBe(404);
    expect((await call('task/scores', { task_id: taskId }, other.key)).status).toBe(404);
    const run = await call('task/run', { plan_id: planId }, other.key);
    expect(run.status).toBe(400);
    expect(JSON.stringify(run.body)).toContain('body.plan_id');
    const rules = await call('rule/list', {}, other.key);
    expect(
      rules.body.data.items.find((r: { code: string }) => r.code === 'progress_note_copied').enabled,
    ).toBe(true);
    expect((await call('plan/delete', { id: planId }, other.key)).status).toBe(404);

    expect((await call('plan/departments', {}, reader)).body.data.items).toEqual(
      expect.arrayContaining(['心内科', '呼吸科', '神经科']),
    );
    expect((await call('plan/departments', {}, other.key)).body.data.items).toEqual([]);

    const del = await call('plan/delete', { id: planId });
    expect(del.status).toBe(200);
    // The task outlives its plan.
    expect((await call('task/faults', { task_id: taskId })).body.data.total).toBe(3);
  });
});
