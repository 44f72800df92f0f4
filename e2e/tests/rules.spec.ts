import {
  apiLogin,
  chooseOption,
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
 * The clinical rule engine (issue 19): a data manager writes a rule "latest ALT above 100 in a
 * male patient raises a warning" (the sex a cohort criterion, written with the cohort criteria's
 * editor and judged by the same evaluator), tries it on a patient, keeps two samples (one that should fire, one that should
 * not), reruns them, publishes the rule and runs it over all patients as a job, whose results
 * name only the patient with the high ALT. The lab code is the story's own, so only its two
 * patients have a value, whatever other stories add.
 */
test('a data manager writes a rule with two samples, publishes it and runs it', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const code = `ALT${run}`;
  const key = await apiLogin(ownAdmin);
  const lab = (v: number) => ({
    table: 'labResults',
    row: {
      itemCode: code,
      itemName: '丙氨酸氨基转移酶',
      valueNum: v,
      unit: 'U/L',
      collectedAt: '2024-03-01T08:00:00+08:00',
    },
  });
  await patientWithRecords(key, { mrn: `RH${run}`, name: `高转氨酶${run}`, gender: 1 }, [lab(150)]);
  await patientWithRecords(key, { mrn: `RN${run}`, name: `正常转氨酶${run}`, gender: 2 }, [lab(40)]);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/data-qc/clinical-rule');
  await page.getByRole('button', { name: '新建规则' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await drawer.getByLabel('规则名称').fill(`ALT 升高${run}`);
  const condition = drawer.getByTestId('rule-condition-0');
  await chooseOption(page, condition.locator('.ant-select').first(), code, code);
  await condition.getByLabel('值').fill('100');
  // A cohort criterion beside it, written with the cohort criteria's own editor: male patients.
  await drawer.getByTestId('rule-add-criterion').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: '性别' }).click();
  const criterion = drawer.getByTestId('rule-condition-1');
  await expect(criterion).toContainText('条件未填完整');
  await criterion.getByLabel('男', { exact: true }).check();
  await expect(criterion.getByTestId('rule-condition-1-meaning')).toBeVisible();
  await drawer.getByTestId('rule-action-0').getByLabel('提示内容').fill('ALT 升高，请复查');
  await drawer.getByTestId('rule-save').click();
  await expect(drawer).toContainText('草稿 v0');

  // Two samples: the high ALT should fire, the normal one should not.
  const samples = drawer.getByTestId('rule-samples');
  const addSample = async (name: string, mrn: string, fires: boolean) => {
    await samples.getByLabel('样本名称').fill(name);
    await chooseOption(page, samples.getByTestId('rule-sample-patient'), mrn, mrn);
    await samples.getByLabel(fires ? '触发' : '不触发', { exact: true }).check();
    await samples.getByTestId('rule-sample-try').click();
    await expect(samples.getByTestId('rule-test-result')).toContainText(fires ? '规则触发' : '规则未触发');
    await samples.getByTestId('rule-sample-save').click();
    await expect(samples.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  };
  await addSample(`高值${run}`, `RH${run}`, true);
  await expect(samples.getByTestId('rule-test-result')).toContainText('150');
  await expect(samples.getByTestId('rule-test-result')).toContainText('性别');
  await addSample(`正常${run}`, `RN${run}`, false);
  await samples.getByTestId('rule-regression').click();
  await expect(samples.getByText('一致', { exact: true })).toHaveCount(2);
  await settled(page);
  await screenshot(page, 'rules-editor');

  await drawer.getByTestId('rule-publish').click();
  await expect(drawer).toContainText('已发布 v1');
  await page.locator('.ant-drawer-close').click();
  await expect(drawer).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`ALT 升高${run}`) });
  await expect(row).toContainText('已发布 v1');
  await expect(row.getByRole('cell').nth(5)).toHaveText('2');
  await page.mouse.move(700, 600);
  await expect(page.locator('.ant-dropdown:visible')).toHaveCount(0);
  await settled(page);
  await screenshot(page, 'rules-list');

  await row.getByRole('button', { name: '运行' }).click();
  const runBox = page.getByTestId('rule-run');
  await runBox.getByTestId('rule-run-start').click();
  await expect(runBox.getByTestId('rule-run-status')).toHaveText('成功', { timeout: 30_000 });
  await expect(runBox).toContainText(`高转氨酶${run}`);
  await expect(runBox).not.toContainText(`正常转氨酶${run}`);
  await expect(runBox).toContainText('ALT 升高，请复查');
  await settled(page);
  await screenshot(page, 'rules-run');

  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // The same screens in English.
  await switchLanguage(page, 'English');
  await expect(row).toContainText('Published v1');
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(drawer.getByTestId('rule-samples')).toContainText('Test samples');
  await settled(page);
  await screenshot(page, 'rules-editor-en');
});
