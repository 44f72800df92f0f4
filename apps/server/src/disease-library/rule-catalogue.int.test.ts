import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAppId } from '../research/test/support.js';
import { userWithoutRoles } from '../test/harness/fixtures.js';
import { get, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { seedHepatitisB } from './test/fixtures.js';

const URL = '/api/v0.1/diseaselibrary/rule-catalogue';

describe('the rule builder’s catalogue: lab items and diagnosis categories of the app, searched', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    await seedHepatitisB(t.app, await demoAppId(t.app));
  });
  afterAll(async () => t?.close());

  it('finds a lab item by part of its code and a diagnosis category by its code', async () => {
    const lab = await get(t.app, `${URL}?kind=lab&q=al`, admin);
    expect(lab.status, JSON.stringify(lab.body)).toBe(200);
    expect(lab.body.data.map((i: { code: string }) => i.code)).toContain('ALT');
    const dx = await get(t.app, `${URL}?kind=diagnosis&q=B18`, admin);
    expect(dx.status).toBe(200);
    expect(dx.body.data[0]).toMatchObject({ kind: 'diagnosis', code: 'B18' });
  });

  it('refuses a member who writes no source rules, and a bad kind names the field', async () => {
    const nobody = await userWithoutRoles(t.app);
    expect((await get(t.app, `${URL}?kind=lab`, nobody)).status).toBe(403);
    expect((await get(t.app, `${URL}?kind=lab`)).status).toBe(401);
    expect((await get(t.app, `${URL}?kind=drug`, admin)).status).toBe(400);
  });
});
