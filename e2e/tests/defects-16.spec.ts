import type { Page } from '@playwright/test';
import {
  account,
  apiLogin,
  expect,
  patientWithRecords,
  preparedDataset,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * The remaining small defects of issue 16, each as a person meets it: a national ID field
 * checked in the browser, table text cut by the spec's rule, the CSV import dialog in words,
 * context pages naming their object in the tab, a sign-in refusal in the reader's language and
 * a survival event in words in a dataset preview. Every story makes its own data.
 */

test.use({ viewport: { width: 1440, height: 900 } });

const errorOf = (page: Page) =>
  page.locator('.ant-modal .ant-form-item-explain-error:not(.ant-form-show-help-item-leave)');
/** The field's message (an old one may still be fading out beside it). */
const showsError = (page: Page, text: string) =>
  expect(page.locator('.ant-modal .ant-form-item-explain-error', { hasText: text })).toBeVisible();

test('a national ID field checks the number in the browser, in both languages, before anything is saved', async ({
  page,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(account('admin'));
  const mrn = `NID${run}`;
  await signInToWorkbench(page, account('admin'));
  await page.goto('/data-lake/cdr-browser');
  await page.getByTestId('patient-create').click();
  const dialog = page.getByRole('dialog', { name: '登记患者' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('病案号').fill(mrn);
  await dialog.getByLabel('姓名').fill(`身份证患者${run}`);
  const id = dialog.getByLabel('身份证号');
  // A wrong check digit (the GB 11643 sample number ends in X).
  await id.fill('110105194912310021');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await showsError(page, '身份证号校验位错误');
  await id.fill('12345');
  await showsError(page, '身份证号格式错误');
  await id.fill('99010519491231002X');
  await showsError(page, '身份证号地址编码错误');
  await screenshot(page, 'defects16-national-id-zh');
  await page.setViewportSize({ width: 375, height: 780 });
  await screenshot(page, 'defects16-national-id-zh-375');
  await page.setViewportSize({ width: 1440, height: 900 });
  // Nothing reached the server.
  const none = await restCall<{ items: unknown[] }>(
    'GET',
    `cdr/rows?table=patients&keyword=${encodeURIComponent(`身份证患者${run}`)}&size=5`,
    key,
  );
  expect(none.body.data.items).toHaveLength(0);

  // The dialog asks before dropping what was typed; then the same in English.
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await page.getByRole('button', { name: '放弃并关闭' }).click();
  await expect(dialog).toBeHidden();
  await switchLanguage(page, 'English');
  await page.getByTestId('patient-create').click();
  const en = page.getByRole('dialog', { name: 'Register a patient' });
  await en.getByLabel('MRN').fill(mrn);
  await en.getByLabel('Name', { exact: true }).fill(`身份证患者${run}`);
  const idEn = en.getByLabel('National ID number');
  await idEn.fill('110105194912310021');
  await en.getByRole('button', { name: /OK/ }).click();
  await showsError(page, "The national ID number's check digit is wrong");
  await idEn.fill('99010519491231002X');
  await showsError(page, 'The national ID number starts with an unknown region code');
  await screenshot(page, 'defects16-national-id-en');
  await idEn.fill('11010519491231002X');
  await expect(errorOf(page)).toHaveCount(0);
  await en.getByRole('button', { name: /OK/ }).click();
  await expect(en).toBeHidden();
  const saved = await restCall<{ items: Array<Record<string, unknown>> }>(
    'GET',
    `cdr/rows?table=patients&keyword=${encodeURIComponent(`身份证患者${run}`)}&size=5`,
    key,
  );
  expect(saved.body.data.items).toHaveLength(1);
});

test('a long name is cut in the CRF list by the spec rule (full-width counts 2), whole on hover', async ({
  page,
}) => {
  const run = runId();
  const key = await apiLogin(account('admin'));
  // 24 Chinese characters and the run id: width 56, over the cell's 40.
  const name = `肝病随访长期观察表单用于检验表格文字截断规则${run}`;
  const made = await restCall<{ id: number }>('POST', 'crf/forms', key, { name, category: '截断' });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  await signInToWorkbench(page, account('admin'));
  await page.goto('/crf-management/crfManagement');
  await page.locator('.ant-pro-query-filter input#name').fill(run);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.locator('.ant-table-tbody tr').filter({ hasText: '肝病随访' });
  await expect(row).toHaveCount(1);
  // 20 full-width characters fill the width of 40, then '...'.
  const cut = `${Array.from(name).slice(0, 20).join('')}...`;
  const cell = row.locator('[data-cut-text]');
  await expect(cell).toHaveText(cut);
  await cell.hover();
  await expect(page.locator('.ant-tooltip:visible')).toHaveText(name);
  await screenshot(page, 'defects16-crf-list-cut');
  await page.mouse.move(0, 0);
  await page.setViewportSize({ width: 375, height: 780 });
  // A phone's cell holds 12 full-width characters.
  await expect(cell).toHaveText(`${Array.from(name).slice(0, 12).join('')}...`);
  await screenshot(page, 'defects16-crf-list-cut-375');
});

test('the CSV import dialog names tables and fields in words, in Chinese and English', async ({ page }) => {
  test.slow();
  await signInToWorkbench(page, account('admin'));
  await page.goto('/data-lake/data-resource-maintenance');
  await expect(page.getByRole('button', { name: '导入 CSV' })).toBeVisible({ timeout: 60_000 });
  const pick = async (file: string) => {
    await page
      .locator('input[type=file]')
      .nth(1)
      .setInputFiles({
        name: file,
        mimeType: 'text/csv',
        buffer: Buffer.from('mrn,name,birthDate\nX-1,张三,1970-01-01\n'),
      });
    const modal = page.locator('.ant-modal').filter({ hasText: file });
    await expect(modal).toBeVisible();
    return modal;
  };
  let modal = await pick('words-zh.csv');
  await modal.getByRole('combobox', { name: /目标表/ }).click();
  await expect(page.locator('.ant-select-item-option-active[title="患者"]')).toBeVisible();
  await page.keyboard.press('Enter');
  for (const word of ['病案号', '姓名', '出生日期', '身份证号']) {
    await expect(modal.locator('.ant-form-item-label').filter({ hasText: word })).toHaveCount(1);
  }
  await expect(modal).not.toContainText('birthDate');
  await expect(modal).not.toContainText('patients');
  await screenshot(page, 'defects16-csv-zh');
  await modal.getByRole('button', { name: /取\s*消/ }).click();
  await expect(modal).toBeHidden();

  await switchLanguage(page, 'English');
  modal = await pick('words-en.csv');
  await modal.getByRole('combobox', { name: /Target table/ }).click();
  await expect(page.locator('.ant-select-item-option-active[title="Patients"]')).toBeVisible();
  await page.keyboard.press('Enter');
  for (const word of ['MRN', 'Date of birth', 'National ID']) {
    await expect(modal.locator('.ant-form-item-label').filter({ hasText: word })).toHaveCount(1);
  }
  await expect(modal).not.toContainText('birthDate');
  await screenshot(page, 'defects16-csv-en');
});

test('context pages name their object in the tab: patient 360, CRF fill page, research subject', async ({
  page,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(account('admin'));
  const patient = await restCall<{ id: number; name: string }>('POST', 'cdr/patients', key, {
    mrn: `TAB${run}`,
    name: `标签页患者${run}`,
    gender: 1,
    birthDate: '1970-02-03',
  });
  expect(patient.status, JSON.stringify(patient.body)).toBe(200);
  const formName = `标签页表单${run}`;
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: formName,
    definition: {
      pages: [{ key: 'p', title: '基线', items: [{ key: 'q1', type: 'textQuestion', title: '备注' }] }],
    },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const pub = await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  const subjectName = `标签页课题${run}`;
  const subject = await restCall<{ id: number }>('POST', 'research/subjects', key, {
    name: subjectName,
    typeCode: 'crossSectional',
    variables: [{ key: 'sex', label: '性别', source: 'gender' }],
  });
  expect(subject.status, JSON.stringify(subject.body)).toBe(200);

  await signInToWorkbench(page, account('admin'));
  const tab = (k: string) => page.locator(`[data-tab-key="${k}"]`);
  await page.goto(`/personalInformation/inHospitalView?id=${patient.body.data.id}`);
  await expect(page.getByTestId('patient-name')).toBeVisible({ timeout: 30_000 });
  const shown = ((await page.getByTestId('patient-name').textContent()) ?? '').trim();
  await expect(tab('/personalInformation/inHospitalView')).toContainText(shown);
  await screenshot(page, 'defects16-tab-patient');
  // At 375 px the card's buttons go under the name instead of over it.
  await page.setViewportSize({ width: 375, height: 800 });
  const name = (await page.getByTestId('patient-name').boundingBox())!;
  const search = (await page.getByRole('button', { name: '患者检索' }).boundingBox())!;
  expect(search.y, 'the buttons sit below the name').toBeGreaterThanOrEqual(name.y + name.height - 1);
  await screenshot(page, 'defects16-360-375');
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto(`/crf-management/hepatopathyPoc?formId=${form.body.data.id}&record=new`);
  await expect(tab('/crf-management/hepatopathyPoc')).toContainText(`${formName} v1`, { timeout: 30_000 });
  await screenshot(page, 'defects16-tab-crf');

  await page.goto(`/scientific-research-subject/subject-list/project-data?id=${subject.body.data.id}`);
  await expect(tab('/scientific-research-subject/subject-list/project-data')).toContainText(subjectName, {
    timeout: 30_000,
  });
  await screenshot(page, 'defects16-tab-subject');
});

test('a sign-in refusal reads in the reader’s language, also after switching', async ({ page }) => {
  const run = runId();
  await page.goto('/user/login');
  await page.getByPlaceholder('用户名').fill(`nobody-${run}`);
  await page.getByPlaceholder('密码').fill('Wrong-Pass-1');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  const error = page.getByTestId('login-error');
  await expect(error).toHaveText('用户名或密码错误');
  await switchLanguage(page, 'English');
  // The same refusal, now in English, without signing in again.
  await expect(error).toHaveText('Wrong user name or password');
  await screenshot(page, 'defects16-login-en');
  await page.setViewportSize({ width: 375, height: 780 });
  await screenshot(page, 'defects16-login-en-375');
});

test('a research dataset preview shows a survival event as event / censored, not 1 / 0', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(420_000);
  const run = runId();
  const key = await apiLogin(ownAdmin);
  const code = `C22.9V${run}`;
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const patient = {
      mrn: `EVT${run}-${i}`,
      name: `生存患者${run}-${i + 1}`,
      gender: 1 + i,
      birthDate: `${1960 + i}-05-01`,
    };
    const rows = [
      { table: 'visits', row: { kind: 'inpatient', admitAt: '2024-01-10T08:00:00+08:00' } },
      {
        table: 'diagnoses',
        row: { icd10: code, name: '肝恶性肿瘤', diagnosedAt: '2024-01-10T08:00:00+08:00' },
      },
      // The first patient has the event (cirrhosis); the second is followed up to a later visit.
      i === 0
        ? {
            table: 'diagnoses',
            row: { icd10: `K74.6V${run}`, name: '肝硬化', diagnosedAt: '2024-03-15T10:00:00+08:00' },
          }
        : { table: 'visits', row: { kind: 'outpatient', admitAt: '2024-04-20T09:00:00+08:00' } },
    ];
    ids.push(await patientWithRecords(key, patient, rows));
  }
  const { id, rows } = await preparedDataset(
    key,
    {
      name: `生存课题${run}`,
      typeCode: 'cohort',
      variables: [{ key: 'cirr', label: '肝硬化', source: 'survival', codes: [`K74.6V${run}`] }],
    },
    ids,
    `生存数据集${run}`,
  );
  // Stored as codes: one event, one censored.
  expect(rows.map((r) => r.cirr_event).sort()).toEqual([0, 1]);

  await signInToWorkbench(page, ownAdmin);
  await page.goto(`/scientific-research-subject/subject-list/data-reduction?id=${id}`);
  await page.getByRole('button', { name: '预览' }).first().click();
  const table = page
    .locator('.ant-card')
    .filter({ hasText: `生存数据集${run}` })
    .locator('.ant-table-tbody');
  await expect(table.getByRole('cell', { name: '事件', exact: true })).toHaveCount(1, { timeout: 30_000 });
  await expect(table.getByRole('cell', { name: '删失', exact: true })).toHaveCount(1);
  await screenshot(page, 'defects16-dataset-event-zh');
  await switchLanguage(page, 'English');
  await expect(table.getByRole('cell', { name: 'Event', exact: true })).toHaveCount(1);
  await expect(table.getByRole('cell', { name: 'Censored', exact: true })).toHaveCount(1);
  await screenshot(page, 'defects16-dataset-event-en');
});

test('chart subtypes are named by the labelling layer in both languages', async ({ page }) => {
  await signInToWorkbench(page, account('admin'));
  await page.goto('/visualization/chart');
  const select = page.getByTestId('subtype-select');
  await expect(select).toContainText('柱状图', { timeout: 30_000 });
  await select.click();
  await expect(page.locator('.ant-select-dropdown:visible')).toContainText('堆叠柱状图');
  await screenshot(page, 'defects16-chart-subtypes-zh');
  await page.keyboard.press('Escape');
  await switchLanguage(page, 'English');
  await expect(select).toContainText('Column');
  await page.setViewportSize({ width: 375, height: 780 });
  await screenshot(page, 'defects16-chart-subtypes-en-375');
});
