import {
  apiLogin,
  dialog,
  expect,
  patientWithRecords,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * The variable library (issue 20): a researcher defines "the largest value of a lab item within
 * 30 days after the first visit" as a variable and reads its distribution on the current data.
 * It goes into a variable group. The lab item code is the story's own, so only its patient has a value, whatever other stories add.
 */
test('a researcher defines a lab variable and sees its distribution', async ({ page, ownAdmin }) => {
  const run = runId();
  const item = `E${run}`;
  const key = await apiLogin(ownAdmin);
  const lab = (valueNum: number, day: string) => ({
    table: 'labResults',
    row: { itemCode: item, itemName: '测试酶', valueNum, unit: 'U/L', collectedAt: `${day}T08:00:00Z` },
  });
  await patientWithRecords(key, { mrn: `VAR${run}`, name: `变量${run}`, gender: 1 }, [
    { table: 'visits', row: { kind: 'outpatient', admitAt: '2024-01-01T08:00:00Z' } },
    lab(40, '2024-01-05'),
    lab(90, '2024-01-20'),
    lab(300, '2024-06-01'), // after the 30 days
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/variable-library/variable-management');
  const card = page.getByTestId('variables');
  await card.getByRole('button', { name: '新增变量' }).click();
  const form = dialog(page);
  await form.getByLabel('变量名').fill(`max_${item.toLowerCase()}`);
  await form.getByLabel('中文标签').fill(`最大测试酶${run}`);
  await form.getByLabel('单位').fill('U/L');
  await form.getByLabel('检验项目编码').fill(item);
  await form.locator('.ant-select', { has: page.getByLabel('取值方式') }).click();
  await page.locator('.ant-select-item-option', { hasText: '最大值' }).click();
  await expect(form.getByLabel('天数（之后 N 天内）')).toHaveValue('30');
  await settled(page);
  await screenshot(page, 'variables-form');
  await form.getByRole('button', { name: /确\s?定/ }).click();
  await expect(form).toBeHidden();

  await card.getByPlaceholder('搜索变量名或标签').fill(`最大测试酶${run}`);
  await card.getByPlaceholder('搜索变量名或标签').press('Enter');
  const row = page.getByRole('row', { name: new RegExp(`最大测试酶${run}`) });
  await expect(row).toContainText('检验项目');
  await expect(row).toContainText(`max lab.value where code = "${item}" after first_visit within 30 days`);
  await screenshot(page, 'variables-management');
  await row.getByRole('button', { name: '分布' }).click();
  const drawer = page.getByTestId('variable-distribution');
  // One patient has a value: the larger of 40 and 90 (300 is outside the window).
  await expect(drawer.getByTestId('variable-stats')).toContainText('90');
  await expect(drawer.locator('.ant-statistic').nth(1)).toContainText('1');
  await settled(page);
  await screenshot(page, 'variables-distribution');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A variable group collects it for a study.
  await page.goto('/variable-library/variable-group-list');
  await page.getByTestId('variable-groups').getByRole('button', { name: '新增变量组' }).click();
  await dialog(page).getByLabel('名称').fill(`基线组${run}`);
  await dialog(page)
    .locator('.ant-select', { has: page.getByRole('combobox', { name: '变量', exact: true }) })
    .click();
  await page.keyboard.type(item.toLowerCase());
  await page.locator('.ant-select-item-option', { hasText: `最大测试酶${run}` }).click();
  await dialog(page).getByLabel('名称').click();
  await settled(page);
  await screenshot(page, 'variable-group-form');
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(`基线组${run}`) })).toContainText(`最大测试酶${run}`);
  await screenshot(page, 'variable-groups');

  // The read-only list shows it too, in English.
  await page.goto('/variable-library/variable-list');
  await switchLanguage(page, 'English');
  await page.getByPlaceholder('Search code or label').fill(item.toLowerCase());
  await page.getByPlaceholder('Search code or label').press('Enter');
  const listed = page.getByRole('row', { name: new RegExp(item.toLowerCase()) });
  await expect(listed).toContainText('Lab item');
  await expect(listed.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await settled(page);
  await screenshot(page, 'variables-list-en');
});
