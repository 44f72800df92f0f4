import type { Page } from '@playwright/test';
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

const save = async (page: Page) => {
  await dialog(page)
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();
  await expect(dialog(page)).toBeHidden();
};

/**
 * Reference data (issue 17): a data manager lays out the hospital's structure, finds a basic
 * dictionary's entry by its pinyin initials, and fills a dictionary of the hospital's own from a
 * CSV file, whose bad rows are named and stop the whole file. The hospital is shared with other
 * stories, so everything here carries the story's run id.
 */
test('a data manager keeps the hospital structure and its dictionaries', async ({ page, ownAdmin }) => {
  test.slow();
  const run = runId();
  const dept = `消化内科${run}`;
  const key = await apiLogin(ownAdmin);
  await patientWithRecords(key, { mrn: `REF${run}`, name: `参考${run}`, gender: 1 }, [
    { table: 'visits', row: { kind: 'inpatient', department: dept, admitAt: '2025-03-01T08:00:00+08:00' } },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // 医院信息维护: a campus, a department under it (with the visit recorded under its name), a ward.
  await page.goto('/data-lake/hospital-info-maintenance');
  const units = page.getByTestId('hospital-units');
  await units.getByRole('button', { name: '新增院区' }).click();
  await dialog(page).getByLabel('名称').fill(`本部${run}`);
  await dialog(page).getByLabel('编码').fill(`C${run}`);
  await save(page);
  const campusRow = page.getByRole('row', { name: new RegExp(`本部${run}`) });
  await campusRow.getByRole('button', { name: '新增科室' }).click();
  await dialog(page).getByLabel('名称').fill(dept);
  await dialog(page).getByLabel('编码').fill(`D${run}`);
  await save(page);
  const deptRow = page.getByRole('row', { name: new RegExp(dept) });
  await expect(deptRow).toContainText('xhnk');
  await expect(deptRow.getByRole('cell').nth(4)).toHaveText('1');
  await deptRow.getByRole('button', { name: '新增病区' }).click();
  // A code with a space is refused in the form, before anything is sent.
  await dialog(page).getByLabel('名称').fill(`${dept}一病区`);
  await dialog(page).getByLabel('编码').fill(`W ${run}`);
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toContainText('编码只能含字母');
  await dialog(page).getByLabel('编码').fill(`W${run}`);
  await save(page);
  await page.getByTestId('units-search').fill(`${run}`);
  await page.getByTestId('units-search').press('Enter');
  await expect(page.getByRole('row', { name: new RegExp(`${dept}一病区`) })).toBeVisible();
  await screenshot(page, 'reference-hospital-units');
  // A campus with departments under it stays, and the reason is shown.
  await page
    .getByRole('row', { name: new RegExp(`本部${run}`) })
    .getByRole('button', { name: '删除' })
    .click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();
  await expect(page.getByText(`「本部${run}」下还有 1 个机构`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`本部${run}`) })).toBeVisible();

  // 基础字典维护: the basic dictionaries with their standard codes; 肌内注射 found by jnzs.
  await page.goto('/data-lake/basic-dictionary-maintenance');
  const list = page.getByTestId('dictionary-list');
  await expect(list).toContainText('性别');
  await list.getByText('给药途径').click();
  await expect(page).toHaveURL(/dictionary=\d+/);
  await page.getByTestId('entries-search').fill('jnzs');
  await page.getByTestId('entries-search').press('Enter');
  const im = page.getByRole('row', { name: /肌内注射/ });
  await expect(im).toContainText('78421000');
  await expect(page.getByRole('row')).toHaveCount(2);
  await screenshot(page, 'reference-basic-dictionaries');

  // 字典管理: the hospital's own dictionary, filled from CSV; a file with bad rows stores nothing.
  await page.goto('/data-lake/dictionaries');
  await page.getByRole('button', { name: '新增字典' }).click();
  await dialog(page).getByLabel('字典编码').fill(`his_dept_${run}`);
  await dialog(page).getByLabel('名称').fill(`HIS 科室${run}`);
  await save(page);
  await expect(page.getByTestId('dictionary-list')).toContainText(`HIS 科室${run}`);
  const upload = (name: string, text: string) =>
    page.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await upload('bad.csv', 'code,name,enabled\n0301,消化内科门诊,1\n,无编码,1\n0302,肝病门诊,也许\n');
  const report = page.getByRole('dialog', { name: '导入结果' });
  await expect(report).toContainText('2 行有错误，整份文件未导入');
  await expect(report.getByTestId('import-faults')).toContainText('enabled');
  await settled(page);
  await screenshot(page, 'reference-import-refused');
  await report.getByRole('button', { name: '关 闭' }).click();
  await expect(page.getByText('这个字典还没有条目。')).toBeVisible();
  await upload(
    'good.csv',
    'code,name,synonyms,standard_code\n0301,消化内科门诊,消化门诊|胃肠门诊,\n0302,肝病门诊,肝科,\n',
  );
  await expect(report).toContainText('已导入 2 行：新增 2 条，更新 0 条');
  await report.getByRole('button', { name: '关 闭' }).click();
  await page.getByTestId('entries-search').fill('胃肠');
  await page.getByTestId('entries-search').press('Enter');
  await expect(page.getByRole('row', { name: /消化内科门诊/ })).toContainText('xhnkmz');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`dictionary-his_dept_${run}.csv`);
  await screenshot(page, 'reference-dictionaries');

  // The same screens read in English.
  await switchLanguage(page, 'English');
  await expect(page.getByRole('button', { name: 'Add dictionary' })).toBeVisible();
  await screenshot(page, 'reference-dictionaries-en');
  await page.goto('/data-lake/hospital-info-maintenance');
  await expect(page.getByTestId('hospital-units')).toContainText('Hospital information');
  await expect(page.getByRole('row', { name: new RegExp(`${dept} Department D${run}`) })).toBeVisible();
  await screenshot(page, 'reference-hospital-units-en');
});
