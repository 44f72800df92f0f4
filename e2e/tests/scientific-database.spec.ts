import { readFileSync } from 'node:fs';
import { parquetReadObjects } from 'hyparquet';
import {
  apiLogin,
  chooseOption,
  dialog,
  expect,
  patientWithRecords,
  recruitedSubject,
  restCall,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * The scientific database (issue 20): a researcher builds a research subject's analysis-ready
 * snapshot from variables of the variable library (a transform task, run as a job), previews it
 * page by page with its column statistics, opens a variable's details, exports it as Parquet (the
 * downloaded file is read back) and looks at both dashboards, in Chinese and in English. The lab
 * item code is the story's own, so only its patients have values whatever other stories add.
 */
test('a researcher builds a snapshot from variables, previews it and exports Parquet', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(240_000);
  const run = runId();
  const item = `S${run}`;
  const key = await apiLogin(ownAdmin);
  const lab = (valueNum: number, day: string) => ({
    table: 'labResults',
    row: { itemCode: item, itemName: '科研库酶', valueNum, unit: 'U/L', collectedAt: `${day}T08:00:00Z` },
  });
  const patients: number[] = [];
  for (const [i, values] of [[40, 90], [55], []].entries())
    patients.push(
      await patientWithRecords(key, { mrn: `SCI${run}${i}`, name: `科研库${run}${i}`, gender: (i % 2) + 1 }, [
        { table: 'visits', row: { kind: 'outpatient', admitAt: '2024-01-01T08:00:00Z' } },
        ...values.map((v, j) => lab(v, `2024-01-0${j + 2}`)),
      ]),
    );
  const code = `enz_${run.toLowerCase()}`;
  for (const body of [
    {
      code,
      labelZh: `首诊 30 天最大科研库酶${run}`,
      labelEn: `Max enzyme ${run}`,
      type: 'number',
      unit: 'U/L',
      derivation: { kind: 'lab', itemCode: item, aggregate: 'max', anchor: 'first_visit', withinDays: 30 },
    },
    {
      code: `sex_${run.toLowerCase()}`,
      labelZh: `性别${run}`,
      labelEn: `Sex ${run}`,
      type: 'category',
      valueSet: [
        { code: '1', labelZh: '男', labelEn: 'Male' },
        { code: '2', labelZh: '女', labelEn: 'Female' },
      ],
      derivation: { kind: 'field', rule: 'value patient.gender' },
    },
  ]) {
    const v = await restCall('POST', 'variables', key, body);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
  }
  await recruitedSubject(key, { name: `科研库课题${run}` }, patients);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // The transform task: the subject's recruited patients, two variables chosen one by one.
  await page.goto('/scientific-database/transform-task');
  const card = page.getByTestId('sci-tasks');
  await card.getByRole('button', { name: '新增转换任务' }).click();
  const form = dialog(page);
  await form.getByLabel('任务名称').fill(`基线库${run}`);
  await chooseOption(
    page,
    form.locator('.ant-select', { has: page.getByLabel('科研课题') }),
    `科研库课题${run}`,
    `科研库课题${run}`,
  );
  await form.getByText('逐个选择').click();
  // The only multiple select of the form: its placeholder goes once a variable is chosen.
  const picker = form.locator('.ant-select-multiple');
  await chooseOption(page, picker, new RegExp(code), code);
  await chooseOption(page, picker, new RegExp(`sex_${run.toLowerCase()}`), `sex_${run.toLowerCase()}`);
  await form.getByLabel('任务名称').click();
  await settled(page);
  await screenshot(page, 'sci-task-form');
  await form.getByRole('button', { name: /确\s?定/ }).click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`基线库${run}`) });
  await expect(row).toContainText('2 个变量');
  await expect(row).toContainText('尚未运行');
  await row.getByRole('button', { name: '运行' }).click();
  await expect(page.getByText('已开始生成第 1 版快照')).toBeVisible();
  await screenshot(page, 'sci-tasks');

  // Its run finishes as a job.
  await row.getByRole('link', { name: '查看运行记录' }).click();
  // Scoped to the runs card: the task list stays open (hidden) in its tab with a row of the same name.
  const runRow = page.getByTestId('sci-runs').getByRole('row', { name: new RegExp(`基线库${run}`) });
  await expect(async () => {
    await page
      .getByTestId('sci-runs')
      .getByRole('button', { name: /刷\s?新/ })
      .click();
    await expect(runRow.getByTestId('snapshot-ready')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 90_000 });
  await expect(runRow).toContainText('v1');
  await settled(page);
  await screenshot(page, 'sci-runs');

  // Preview: study numbers, values, the statistics under the headers.
  await runRow.getByRole('link', { name: '预览' }).click();
  const rows = page.getByTestId('sci-rows');
  // antd draws the header twice under a horizontal scroll (its measuring row): the first is the visible one.
  await expect(rows.getByRole('row', { name: /S00001/ })).toContainText('90');
  await expect(rows.getByRole('row', { name: /S00002/ })).toContainText('55');
  await expect(rows.getByRole('row', { name: /S00001/ })).toContainText('男 (1)');
  await expect(page.getByTestId(`stat-${code}`).first()).toContainText('有值 67%');
  await expect(page.getByTestId(`stat-${code}`).first()).toContainText('55 ~ 90');
  await expect(rows).not.toContainText(`科研库${run}`);
  await settled(page);
  await screenshot(page, 'sci-preview');

  // Details: the variable as built, then the Parquet export, read back.
  const snapshotId = new URL(page.url()).searchParams.get('snapshot');
  await page.goto(`/scientific-database/details?snapshot=${snapshotId}`);
  await expect(page.getByTestId('snapshot-facts')).toContainText(`科研库课题${run}`);
  await expect(page.getByTestId('variable-detail')).toContainText(`max lab.value where code = "${item}"`);
  await settled(page);
  await screenshot(page, 'sci-details');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-parquet').click(),
  ]);
  expect(download.suggestedFilename()).toBe(`基线库${run}-v1.parquet`);
  const bytes = readFileSync((await download.path())!);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const read = await parquetReadObjects({ file });
  expect(read.map((r) => [r.study_no, r[code], r[`sex_${run.toLowerCase()}`]])).toEqual([
    ['S00001', 90, '1'],
    ['S00002', 55, '2'],
    ['S00003', null, '1'],
  ]);

  // The two dashboards.
  await page.goto(`/scientific-database/dashboard?snapshot=${snapshotId}`);
  await expect(page.getByTestId('completeness-chart')).toBeVisible();
  await settled(page);
  await screenshot(page, 'sci-dashboard');
  await page.goto('/scientific-database/scientific-data-dashboard');
  await expect(page.getByTestId('sci-overview')).toContainText(`基线库${run}`);
  await settled(page);
  await screenshot(page, 'sci-overview');

  // The preview in English.
  await page.goto(`/scientific-database/preview?snapshot=${snapshotId}`);
  await switchLanguage(page, 'English');
  await expect(page.getByTestId(`stat-${code}`).first()).toContainText('67% with a value');
  await expect(page.getByTestId('sci-rows').getByRole('row', { name: /S00001/ })).toContainText('Male (1)');
  await settled(page);
  await screenshot(page, 'sci-preview-en');
});
