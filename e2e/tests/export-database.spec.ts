import { readFileSync } from 'node:fs';
import {
  apiLogin,
  expect,
  openOperationLog,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * The database export of the system settings: an administrator sees this hospital's tables with
 * their row counts and downloads the hospital's own data as a ZIP of CSV files.
 */
test('an administrator exports this hospital’s data as a ZIP of CSV files, in Chinese and in English', async ({
  page,
  ownAdmin: admin,
}) => {
  test.setTimeout(180_000);
  // An administrator of its own: the export is found in the activity log by its name.
  const key = await apiLogin(admin);
  const mrn = `EXPDB${runId()}`;
  const made = await restCall('POST', 'cdr/patients', key, { mrn, name: '导出测试患者', gender: 1 });
  expect(made.status, JSON.stringify(made.body)).toBe(200);

  await signInToWorkbench(page, admin);
  await page.goto('/system/exportDatabase');
  await expect(page.locator('.ant-card-head-title').filter({ hasText: '数据库导出' })).toBeVisible();
  const patientsRow = page.getByTestId('export-db-tables').locator('tr[data-row-key="patients"]');
  await expect(patientsRow).toBeVisible();
  await expect(page.getByTestId('export-db-total')).not.toHaveText('0');
  await expect(page.getByText('整站备份', { exact: true })).toBeVisible();
  await screenshot(page, 'export-database-zh');

  const download = page.waitForEvent('download');
  await page.getByTestId('export-db').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^crdp-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = readFileSync((await file.path())!);
  // A ZIP whose directory names the patients table and the manifest.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(bytes.includes(Buffer.from('patients.csv'))).toBe(true);
  expect(bytes.includes(Buffer.from('manifest.json'))).toBe(true);
  await expect(page.getByText('导出完成')).toBeVisible();

  // The activity log shows the export, its object in words (the labelling layer), not 'app_database'.
  await openOperationLog(page, admin.username);
  await expect(
    page.getByRole('row').filter({ hasText: admin.username }).filter({ hasText: '本院数据库' }),
  ).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'app_database' })).toHaveCount(0);

  // The same page in English.
  await page.goto('/system/exportDatabase');
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: "Export this hospital's data" })).toBeVisible();
  await expect(page.getByText('Whole-site backup', { exact: true })).toBeVisible();
  await screenshot(page, 'export-database-en');
});
