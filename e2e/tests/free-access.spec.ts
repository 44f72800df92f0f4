import { account, apiLogin, expect, restCall, screenshot, test } from '../fixtures';

test('a free-access CRF link opens the CRF set without a password and refuses normal pages', async ({
  page,
}) => {
  const adminKey = await apiLogin(account('admin'));
  const issued = await restCall<{ path?: string; link?: string; url?: string }>(
    'POST',
    'free_access',
    adminKey,
    {
      scopeKind: 'crf',
      objectId: '1',
      hours: 1,
      label: 'e2e',
    },
  );
  expect(issued.status).toBe(200);
  const link = issued.body.data.path ?? issued.body.data.link ?? issued.body.data.url;
  // The key rides in the fragment: the browser never sends it, so no server or proxy logs it.
  expect(link).toMatch(/^\/crf\?id=1#key=[\w-]{43}$/);
  const linkKey = new URLSearchParams(link!.split('#')[1]).get('key')!;
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));

  await page.goto(link!);
  await expect(page).toHaveURL(/\/crf\?id=1$/);
  expect(requested.length).toBeGreaterThan(0);
  for (const url of requested) expect(url).not.toContain(linkKey);
  await expect(page.getByTestId('free-layout-crf')).toBeVisible();
  await expect(page.getByText('抱歉，你无权访问该页面')).toHaveCount(0);
  await screenshot(page, 'free-access-crf');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('fygo__ssh') ?? 'null'))).toBe('crf');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('fygo__CRF_OBJECT_ID') ?? 'null'))).toBe(
    '1',
  );

  await page.goto('/dashboard/workplace');
  await expect(page.getByText('抱歉，你无权访问该页面')).toBeVisible();
  await page.goto('/system/user-manage');
  await expect(page.getByText('抱歉，你无权访问该页面')).toBeVisible();

  // The server enforces the scope as well.
  const key = await page.evaluate(
    () => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string,
  );
  expect((await restCall('GET', 'current_user', key)).status).toBe(403);
});

test('an older free-access link with ?key= still opens, and the key leaves the address at once', async ({
  page,
}) => {
  const adminKey = await apiLogin(account('admin'));
  const issued = await restCall<{ key: string }>('POST', 'free_access', adminKey, {
    scopeKind: 'crf',
    objectId: '1',
    hours: 1,
  });
  const key = issued.body.data.key;
  const seen: string[] = [];
  await page.route('**/api/v0.1/free_access/session', async (route) => {
    seen.push(await page.evaluate(() => window.location.href));
    await route.continue();
  });
  await page.goto(`/crf?id=1&key=${key}`);
  await expect(page.getByTestId('free-layout-crf')).toBeVisible();
  await expect(page).toHaveURL(/\/crf\?id=1$/);
  // The key was gone from the address before the page exchanged it.
  expect(seen).toHaveLength(1);
  expect(seen[0]).not.toContain(key);
});
