import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ELIGIBILITY_SUBJECTS } from '../../apps/server/src/crf/test/openclinica';
import { account, apiLogin, chooseOption, expect, restCall, runId, screenshot, test } from '../fixtures';
import { signInAsAdmin } from '../fixtures-crf';

/**
 * Issue 21: records of a form from the ClinicalData of a real OpenClinica 3.x extract (fixtures/
 * openclinica, MIT). The CRF list's 导入记录 takes the file; a fault anywhere stores nothing and the
 * dialog lists every fault; a good file stores a draft record per FormData and the report lists them.
 */
const EXTRACT = fileURLToPath(
  new URL('../../fixtures/openclinica/openclinica_demo_extract.xml', import.meta.url),
);

async function importedForm(key: string, formOid: string, name: string) {
  const made = await restCall<{ form: { id: number } }>('POST', 'crf/forms/import', key, {
    format: 'odm',
    name,
    content: readFileSync(EXTRACT, 'utf8'),
    formOid,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.data.form.id;
  expect((await restCall('POST', `crf/forms/${id}/publish`, key, { note: '' })).status).toBe(200);
  return id;
}

test('the CRF list imports the records of an OpenClinica CRF: every fault listed, or every record stored', async ({
  page,
}) => {
  test.slow();
  const key = await apiLogin(account('admin'));
  const run = runId();
  const exam = `OC 体格检查 ${run}`;
  const eligibility = `OC 入选标准 ${run}`;
  await importedForm(key, 'F_PHYSICALEXAM_ENGLISH', exam);
  await importedForm(key, 'F_ELIGIBILITY_V10', eligibility);
  // The subjects are patients of the app (an earlier run may have made them already).
  for (const [i, mrn] of ELIGIBILITY_SUBJECTS.entries()) {
    const p = await restCall('POST', 'cdr/patients', key, {
      mrn,
      name: `OpenClinica 受试者 ${i + 1}`,
      gender: 1,
    });
    expect([200, 400]).toContain(p.status);
  }

  await signInAsAdmin(page);
  await page.goto(`/crf-management/crfManagement`);
  await page.getByRole('textbox').first().fill(run);
  await page.getByRole('button', { name: /查\s*询/ }).click();

  // The English physical exam: codes its one exported code list lacks. Nothing stored, every fault listed.
  const examRow = page.getByRole('row').filter({ hasText: exam });
  await examRow.getByRole('button', { name: '导入记录' }).click();
  let dialog = page.getByRole('dialog').filter({ hasText: '导入记录' });
  await dialog.locator('input[type=file]').setInputFiles(EXTRACT);
  await chooseOption(
    page,
    dialog.locator('.ant-select:has(#import-records-form-oid)'),
    'F_PHYSICALEXAM_ENGLISH',
  );
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const faults = dialog.getByTestId('import-records-faults');
  await expect(faults).toContainText('文件有错误，未导入任何记录');
  await expect(faults).toContainText('I_PHYSI_SKIN: "2" is not a choice of I_PHYSI_SKIN');
  await screenshot(page, 'crf-import-records-faults');
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(examRow.getByRole('cell').nth(4)).toHaveText('0');

  // Eligibility: eleven records, one per subject; the report names each with its study event.
  const row = page.getByRole('row').filter({ hasText: eligibility });
  await row.getByRole('button', { name: '导入记录' }).click();
  dialog = page.getByRole('dialog').filter({ hasText: '导入记录' });
  await dialog.locator('input[type=file]').setInputFiles(EXTRACT);
  await chooseOption(page, dialog.locator('.ant-select:has(#import-records-form-oid)'), 'F_ELIGIBILITY_V10');
  await screenshot(page, 'crf-import-records');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const report = page.getByTestId('import-records-report');
  await expect(page.locator('.ant-modal-confirm')).toContainText('已导入 11 条记录（草稿）');
  await expect(report).toContainText('SS_CAM101（SE_REGISTRATIONVISIT）：历史 0 条');
  await screenshot(page, 'crf-import-records-report');
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /知道了|确\s*定|OK/ })
    .click();
  await expect(row.getByRole('cell').nth(4)).toHaveText('11');
});
