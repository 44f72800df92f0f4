import { account, expect, screenshot, signInToWorkbench, test } from '../fixtures';

// A CSV whose header quotes a column name holding a comma: the mapping must offer it whole.
const CSV = 'mrn,"name, full",gender\nE2E-CSV-1,"Zhang, San",1\n';

test('the CSV import offers a quoted column name with a comma as one column to map', async ({ page }) => {
  test.setTimeout(180_000);
  await signInToWorkbench(page, account('admin'));
  await page.goto('/data-lake/data-resource-maintenance');
  await expect(page.getByRole('button', { name: '导入 CSV' })).toBeVisible({ timeout: 60_000 });
  // The second upload of the toolbar is the CSV one (the first takes FHIR bundles).
  await page
    .locator('input[type=file]')
    .nth(1)
    .setInputFiles({ name: 'quoted-header.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  const modal = page.locator('.ant-modal').filter({ hasText: 'quoted-header.csv' });
  await expect(modal).toBeVisible();
  // The target table by keyboard (patients is the first table): the open dropdown under a
  // loaded machine keeps moving while it animates in, and the key needs no stable box.
  await modal.getByRole('combobox', { name: /目标表/ }).click();
  await expect(page.locator('.ant-select-item-option-active[title="患者"]')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(modal.getByRole('combobox', { name: /^病案号/ })).toBeVisible();
  // The first column field of the patients table (mrn) lists the file's three columns.
  await modal.getByRole('combobox', { name: /^病案号/ }).click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option-content');
  await expect(options).toHaveText(['mrn', 'name, full', 'gender']);
  await screenshot(page, 'csv-import-quoted-header');
});
