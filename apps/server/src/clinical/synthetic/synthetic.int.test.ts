import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { demoUserWith } from '../test/support.js';

describe('synthetic patients in the import list', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => t.close());

  it('lists the app’s generation jobs with what was asked and what was made, newest first', async () => {
    const first = await post(t.app, '/api/v0.1/cdr/synthetic', { patients: 3, seed: 11 }, admin);
    const second = await post(t.app, '/api/v0.1/cdr/synthetic', { patients: 2, seed: 12 }, admin);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    await t.app.jobs.drain();
    const list = await get(t.app, '/api/v0.1/cdr/synthetic', admin);
    expect(list.status).toBe(200);
    expect(list.body.data.map((j: { id: number }) => j.id).slice(0, 2)).toEqual([
      second.body.data.id,
      first.body.data.id,
    ]);
    expect(list.body.data[1]).toMatchObject({
      kind: 'cdr.synthetic',
      status: 'succeeded',
      patients: 3,
      seed: 11,
      result: { patients: 3 },
    });
  });

  it('is for those who may read the import list', async () => {
    const reader = await demoUserWith(t.app, 'import-reader', ['DataLakeDataResourceMaintenance.query']);
    expect((await get(t.app, '/api/v0.1/cdr/synthetic', reader)).status).toBe(200);
    const other = await demoUserWith(t.app, 'cdr-browser-only', ['DataLakeCdrBrowser.query']);
    expect((await get(t.app, '/api/v0.1/cdr/synthetic', other)).status).toBe(403);
  });
});
