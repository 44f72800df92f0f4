import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuNames, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { createAdministrator } from './bootstrap.js';

describe('the first administrator (npm run create-admin)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ demoData: false });
  });
  afterAll(async () => t.close());

  it('creates an app with product 22 and an administrator who sees every menu', async () => {
    await createAdministrator(t.app.db, {
      userName: 'chief',
      password: 'Chief-Admin-1',
      appShortName: 'HOSP',
    });
    const key = await signIn(t.app, 'chief', 'Chief-Admin-1');
    expect(await menuNames(t.app, key)).toContain('UserManage');
  });

  it('refuses a weak password and a duplicate user name', async () => {
    await expect(
      createAdministrator(t.app.db, { userName: 'weak', password: 'password', appShortName: 'HOSP' }),
    ).rejects.toThrow(/policy/);
    await expect(
      createAdministrator(t.app.db, { userName: 'CHIEF', password: 'Chief-Admin-1', appShortName: 'HOSP' }),
    ).rejects.toThrow(/already exists/);
  });
});
