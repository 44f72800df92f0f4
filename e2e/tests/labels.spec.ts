import { DRINK_FORM } from '../../apps/server/src/disease-library/test/drink-form';
import {
  apiLogin,
  expect,
  openOperationLog,
  patientWithRecords,
  preparedDataset,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  switchLanguage,
  test,
  waitForJob,
} from '../fixtures';

/**
 * Codes read as words (issue 16): the bell's job titles, the operation log's actions, a library
 * patient's inclusion reason, a single choice in the library's statistics, and sex and survival
 * days in a research dataset's preview — in Chinese and in English, never as the stored code.
 */

// Screens are looked at as a desk screen shows them.
test.use({ viewport: { width: 1440, height: 900 } });

/** Three patients with a liver cancer diagnosis of this attempt's code; sexes 1, 2, 1. */
async function patients(key: string, run: string, code: string) {
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const patient = {
      mrn: `LBL${run}-${i}`,
      name: `标签患者${run}-${i + 1}`,
      gender: 1 + (i % 2),
      birthDate: `${1955 + i}-05-01`,
    };
    // Admitted 2024-01-10 08:00 with liver cancer; cirrhosis 36, 65 and 96 days and two hours later.
    const rows = [
      { table: 'visits', row: { kind: 'inpatient', admitAt: '2024-01-10T08:00:00+08:00' } },
      {
        table: 'diagnoses',
        row: { icd10: code, name: '肝恶性肿瘤', diagnosedAt: '2024-01-10T08:00:00+08:00' },
      },
      {
        table: 'diagnoses',
        row: { icd10: `K74.6Z${run}`, name: '肝硬化', diagnosedAt: `2024-0${2 + i}-15T10:00:00+08:00` },
      },
    ];
    ids.push(await patientWithRecords(key, patient, rows));
  }
  return ids;
}

test('codes read as words: bell, operation log, inclusion reason and a single choice in statistics', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(600_000); // seven steps, each a full page load; 420 s ran out at load 20+
  const run = runId();
  const key = await apiLogin(ownAdmin);
  const code = `C22.9L${run}`;
  const ids = await patients(key, run, code);
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `标签随访表${run}`,
    definition: DRINK_FORM,
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  expect((await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' })).status).toBe(
    200,
  );
  const lib = await restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
    name: `标签专病库${run}`,
    crfFormId: form.body.data.id,
    criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [code] }], exclusion: [] },
  });
  expect(lib.status, JSON.stringify(lib.body)).toBe(200);
  const libId = lib.body.data.id;
  // The push is this user's job: its notice is the bell's one notice.
  const push = await restCall<{ jobId: number }>('POST', `diseaselibrary/libraries/${libId}/push`, key, {});
  await waitForJob(key, push.body.data.jobId);
  for (const [i, drink] of [1, 3, 1].entries()) {
    const p = await restCall<{ record: { revision: number } }>(
      'GET',
      `diseaselibrary/libraries/${libId}/patients/${ids[i]}`,
      key,
    );
    const saved = await restCall('PUT', `diseaselibrary/libraries/${libId}/patients/${ids[i]}/record`, key, {
      answers: { drink, alt: 30 + i * 10 },
      revision: p.body.data.record.revision,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }

  await signInToWorkbench(page, ownAdmin);
  // The bell: the push's notice in words, not "diseaseLibrary.push 完成".
  await page.getByTestId('notice-bell').click();
  const bell = page.getByTestId('notice-list');
  await expect(bell).toContainText('专病库患者推送已完成');
  await expect(bell).not.toContainText('diseaseLibrary.push');
  await screenshot(page, 'labels-1-bell');
  await page.keyboard.press('Escape');

  // The patient list: 纳入原因 names the diagnosis, not "diagnosis C22…".
  await page.goto(`/zhuanbing-library/ZhuanbingPatientsList?libraryId=${libId}`);
  const reason = `诊断：肝恶性肿瘤 (${code})`;
  await expect(page.getByText(reason).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(`diagnosis ${code}`)).toHaveCount(0);
  await screenshot(page, 'labels-2-reason');

  // Statistics: the single choice is counted by option names, not averaged as 0/1/3.
  await page.goto(`/zhuanbing-library/statistics-analysis?libraryId=${libId}`);
  await page.getByRole('button', { name: /^分\s*析$/ }).click();
  const row = page.getByRole('row').filter({ hasText: '饮酒' }).first();
  await expect(row).toContainText('偶尔: 2', { timeout: 30_000 });
  await expect(row).toContainText('经常: 1');
  await expect(row).not.toContainText('均值');
  await screenshot(page, 'labels-3-statistics');

  // The operation log: this user's sign-in reads 登录, not "login".
  await openOperationLog(page, ownAdmin.username);
  const log = page.locator('.ant-table-tbody');
  await expect(log.getByRole('cell', { name: '登录', exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(log.getByRole('cell', { name: 'login', exact: true })).toHaveCount(0);
  // …on the object 用户, not "user"; a library patient's record is 专病库患者.
  await expect(log.getByRole('row').filter({ hasText: '登录' }).first()).toContainText('用户');
  for (const code of ['user', 'disease_library_patient'])
    await expect(log.getByRole('cell', { name: code, exact: true })).toHaveCount(0);
  await screenshot(page, 'labels-4-log');

  // The same in English.
  await switchLanguage(page, 'English');
  await expect(log.getByRole('cell', { name: 'Signed in', exact: true }).first()).toBeVisible();
  await screenshot(page, 'labels-4-log-en');
  await page.goto(`/zhuanbing-library/ZhuanbingPatientsList?libraryId=${libId}`);
  await expect(page.getByText(`Diagnosis: 肝恶性肿瘤 (${code})`).first()).toBeVisible({ timeout: 90_000 });
  await screenshot(page, 'labels-2-reason-en');
  await page.getByTestId('notice-bell').click();
  await expect(bell).toContainText('Disease library push finished');
  await screenshot(page, 'labels-1-bell-en');
  await page.keyboard.press('Escape');
  await page.goto(`/zhuanbing-library/statistics-analysis?libraryId=${libId}`);
  await page.getByRole('button', { name: /^Analy[sz]e$/ }).click();
  await expect(page.getByRole('row').filter({ hasText: '饮酒' }).first()).toContainText('偶尔: 2', {
    timeout: 30_000,
  });
  await screenshot(page, 'labels-3-statistics-en');
});

test('a research dataset preview shows sex in words and survival days rounded', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(420_000);
  const run = runId();
  const key = await apiLogin(ownAdmin);
  const code = `C22.9R${run}`;
  const ids = await patients(key, run, code);
  const { id, rows } = await preparedDataset(
    key,
    {
      name: `标签课题${run}`,
      typeCode: 'crossSectional',
      variables: [
        { key: 'sex', label: '性别', source: 'gender' },
        { key: 'cirr', label: '肝硬化', source: 'survival', codes: [`K74.6Z${run}`] },
      ],
    },
    ids,
    `标签数据集${run}`,
  );
  // The stored cells are codes and unrounded days; the screen must word and round them.
  expect(rows.map((r) => r.sex).sort()).toEqual([1, 1, 2]);

  await signInToWorkbench(page, ownAdmin);
  await page.goto(`/scientific-research-subject/subject-list/data-reduction?id=${id}`);
  await page.getByRole('button', { name: '预览' }).first().click();
  const table = page
    .locator('.ant-card')
    .filter({ hasText: `标签数据集${run}` })
    .locator('.ant-table-tbody');
  await expect(table.getByRole('cell', { name: '男', exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('cell', { name: '女', exact: true })).toHaveCount(1);
  const cells = await table.locator('td').allInnerTexts();
  for (const c of cells) expect(c, 'a number with at most two decimals').not.toMatch(/\d\.\d{3,}/);
  expect(cells).toContain('36.08');
  await screenshot(page, 'labels-5-dataset');
  await switchLanguage(page, 'English');
  await expect(table.getByRole('cell', { name: 'Male', exact: true }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Female', exact: true })).toHaveCount(1);
  await screenshot(page, 'labels-5-dataset-en');
});
