import {
  apiLogin,
  expect,
  ownAccount,
  restCall,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * Data-element subscription (issue 19): a user subscribes to a data element; a data steward
 * publishes a new version; the user's header lights the red icon, which opens the page with what
 * changed (the unit, struck through and new) and goes out once read. The element is the story's own.
 */
test('a subscriber sees a new version of a data element through the header icon', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const code = `DE${run}`;
  const steward = await apiLogin(await ownAccount('admin', 'steward'));
  const definition = { name: `基线ALT${run}`, type: 'number', unit: 'U/L', derivation: '入组前最近一次 ALT' };
  const made = await restCall<{ id: number }>('POST', 'data-elements', steward, {
    code,
    definition,
    note: '首版',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.data.id;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await expect(page.getByTestId('subscription-flag')).toHaveCount(0);
  await page.goto('/data-element/data-element-subscribe');
  await page.getByPlaceholder('搜索编码或名称').fill(code);
  await page.getByPlaceholder('搜索编码或名称').press('Enter');
  const row = page.getByTestId('data-elements').getByRole('row', { name: new RegExp(code) });
  await row.getByRole('button', { name: '订阅' }).click();
  await expect(row).toContainText('已订阅');
  await settled(page);
  await screenshot(page, 'data-element-list');

  const v2 = await restCall('POST', `data-elements/${id}/versions`, steward, {
    definition: { ...definition, unit: 'IU/L' },
    note: '单位改为 IU/L',
  });
  expect(v2.status, JSON.stringify(v2.body)).toBe(200);
  await page.goto('/dashboard/workplace');
  const flag = page.getByTestId('subscription-flag');
  await expect(flag).toBeVisible();
  await screenshot(page, 'data-element-flag');
  await flag.click();
  await expect(page).toHaveURL(/isnotify=true/);
  const updates = page.getByTestId('data-element-updates');
  await expect(updates).toContainText(`${code} · 基线ALT${run}`);
  await expect(updates).toContainText('第 1 版 → 第 2 版');
  await expect(updates.getByRole('row', { name: /单位/ })).toContainText('IU/L');
  // Read: the icon goes out.
  await expect(flag).toHaveCount(0);
  await settled(page);
  await screenshot(page, 'data-element-updates');
});
