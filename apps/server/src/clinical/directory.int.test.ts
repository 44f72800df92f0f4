import type { CdrDirectory, CdrFieldProfile } from '@crdp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { demoUserWith } from './test/support.js';

/**
 * The directory (目录浏览): a data manager sees how full each table and field is, and what a
 * field holds, without ever seeing who the patients are; another hospital's rows are not counted.
 */
describe('CDR directory', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  const patients: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    const people = [
      { mrn: 'D001', name: '赵一', gender: 1, birthDate: '1950-03-01', phone: '13800000001' },
      { mrn: 'D002', name: '钱二', gender: 2, birthDate: '1962-07-15', phone: '' },
      { mrn: 'D003', name: '孙三', gender: 2, birthDate: '1975-11-30', phone: '' },
    ];
    for (const p of people) {
      const res = await post(t.app, '/api/v0.1/cdr/patients', p, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      patients.push(res.body.data.id);
    }
    const labs = [
      { patient: 0, value: 40 },
      { patient: 0, value: 80 },
      { patient: 1, value: 120 },
      { patient: 2, value: 60 },
    ];
    for (const l of labs) {
      const res = await post(
        t.app,
        `/api/v0.1/cdr/patients/${patients[l.patient]}/records`,
        {
          table: 'labResults',
          row: {
            itemCode: 'ALT',
            itemName: '丙氨酸氨基转移酶',
            valueNum: l.value,
            unit: 'U/L',
            collectedAt: '2024-05-01T08:00:00+08:00',
          },
        },
        admin,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Another hospital's patient: never counted here.
    const theirs = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'X001', name: '外院', gender: 1, phone: '13900000000' },
      other.key,
    );
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  });
  afterAll(async () => t.close());

  it('lists every table with the app’s rows and each field’s filled rows', async () => {
    const res = await get(t.app, '/api/v0.1/cdr/directory', admin);
    expect(res.status).toBe(200);
    const dir = res.body.data as CdrDirectory;
    const table = (k: string) => dir.tables.find((x) => x.key === k)!;
    expect(dir.tables.map((x) => x.key)).toContain('documents');
    const p = table('patients');
    expect(p.rows).toBe(3);
    const field = (k: string) => p.fields.find((f) => f.key === k)!;
    expect(field('phone')).toMatchObject({ kind: 'text', filled: 1, identifying: true });
    expect(field('birthDate')).toMatchObject({ kind: 'date', filled: 3, identifying: false });
    expect(field('gender')).toMatchObject({ kind: 'number', filled: 3 });
    expect(p.fields.map((f) => f.key)).not.toContain('appId');
    expect(p.fields.map((f) => f.key)).not.toContain('searchText');
    const labs = table('labResults');
    expect(labs.rows).toBe(4);
    expect(labs.fields.find((f) => f.key === 'valueNum')).toMatchObject({ kind: 'number', filled: 4 });
    expect(labs.fields.find((f) => f.key === 'patientId')).toMatchObject({ kind: 'id', filled: 4 });
  });

  it('profiles a number, a text and a date field of the app', async () => {
    const num = (await get(t.app, '/api/v0.1/cdr/directory/field?table=labResults&field=valueNum', admin))
      .body.data as CdrFieldProfile;
    expect(num).toMatchObject({ kind: 'number', rows: 4, filled: 4, distinct: 4, identifying: false });
    expect(num.numeric).toEqual({ min: 40, max: 120, mean: 75, p25: 55, p50: 70, p75: 90 });
    expect(num.histogram).toHaveLength(10);
    expect(num.histogram.reduce((s, b) => s + b.n, 0)).toBe(4);
    expect(num.histogram[0]).toEqual({ from: 40, to: 48, n: 1 });
    expect(num.histogram[9]).toEqual({ from: 112, to: 120, n: 1 });

    const text = (await get(t.app, '/api/v0.1/cdr/directory/field?table=labResults&field=itemCode', admin))
      .body.data as CdrFieldProfile;
    expect(text.top).toEqual([{ value: 'ALT', n: 4 }]);

    const date = (await get(t.app, '/api/v0.1/cdr/directory/field?table=patients&field=birthDate', admin))
      .body.data as CdrFieldProfile;
    expect(date.byYear).toEqual([
      { year: '1950', n: 1 },
      { year: '1962', n: 1 },
      { year: '1975', n: 1 },
    ]);
  });

  it('counts identifying fields but never lists their values', async () => {
    for (const field of ['name', 'phone', 'mrn']) {
      const res = await get(t.app, `/api/v0.1/cdr/directory/field?table=patients&field=${field}`, admin);
      expect(res.status).toBe(200);
      const p = res.body.data as CdrFieldProfile;
      expect(p.identifying).toBe(true);
      expect(p.distinct).toBeNull();
      expect(p.top).toEqual([]);
      expect(JSON.stringify(res.body)).not.toMatch(/赵一|13800000001|D001/);
    }
  });

  it('refuses an unknown table or field naming it, and a reader without the function', async () => {
    const table = await get(t.app, '/api/v0.1/cdr/directory/field?table=nope&field=id', admin);
    expect(table.status).toBe(400);
    expect(table.body.message).toContain('table');
    const field = await get(t.app, '/api/v0.1/cdr/directory/field?table=patients&field=passwordHash', admin);
    expect(field.status).toBe(400);
    expect(field.body.message).toContain('passwordHash');
    const reader = await demoUserWith(t.app, 'browser-only', ['DataLakeCdrBrowser.query']);
    expect((await get(t.app, '/api/v0.1/cdr/directory', reader)).status).toBe(403);
    expect(
      (await get(t.app, '/api/v0.1/cdr/directory/field?table=patients&field=gender', reader)).status,
    ).toBe(403);
  });

  it('shows another hospital only its own rows', async () => {
    const dir = (await get(t.app, '/api/v0.1/cdr/directory', other.key)).body.data as CdrDirectory;
    expect(dir.tables.find((x) => x.key === 'patients')!.rows).toBe(1);
    expect(dir.tables.find((x) => x.key === 'labResults')!.rows).toBe(0);
  });
});
