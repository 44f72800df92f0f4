import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * Lists used as pickers search on the server as the person types (issue 16): the disease picker
 * of 创建专病库 used to ask for 200 diseases while the server allows 100, swallowed the 400 and
 * stayed empty for good.
 */
test('the disease picker of 创建专病库 finds any of many diseases by what is typed', async ({ page }) => {
  test.setTimeout(120_000);
  const run = runId();
  const key = await apiLogin(account('admin'));
  // More diseases than one page of any picker: the one wanted is far down the list.
  for (let i = 0; i < 45; i++) {
    const r = await restCall('POST', 'disease', key, {
      name: `拾取测试${run}病${String(i).padStart(2, '0')}`,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }

  await signInToWorkbench(page, account('admin'));
  await page.goto('/zhuanbing-library/create-library');
  const picker = page.getByRole('combobox').first();
  await picker.click();
  // The first page opens with options (it was always empty).
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').first()).toBeVisible();
  // Nothing matches: the dropdown says so in words.
  await picker.fill(`${run}不存在的病种`);
  await expect(page.locator('.ant-select-dropdown:visible')).toContainText('没有匹配的选项');
  await picker.fill(`${run}病44`);
  const wanted = page.locator('.ant-select-dropdown:visible .ant-select-item-option', {
    hasText: `拾取测试${run}病44`,
  });
  await expect(wanted).toBeVisible();
  await screenshot(page, 'picker-disease-zh');
  await wanted.click();
  await expect(page.locator('.ant-select-selection-item', { hasText: `拾取测试${run}病44` })).toBeVisible();

  // English reads naturally too.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  const pickerEn = page.getByRole('combobox').first();
  await page.locator('.ant-select').first().click();
  await pickerEn.fill(`${run}病07`);
  await expect(
    page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `拾取测试${run}病07` }),
  ).toBeVisible();
  await pickerEn.fill(`${run}nothing-like-this`);
  await expect(page.locator('.ant-select-dropdown:visible')).toContainText('Nothing matches');
  await screenshot(page, 'picker-disease-en');
});
