import { mimicCsv } from '../../apps/server/src/research/external/test/mimic';
import {
  apiLogin,
  chooseOption,
  dialog,
  expect,
  okButton,
  patientWithRecords,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * The rest of the variable library and the annotation and external-dataset screens (issue 20):
 * a researcher makes six variables from one template over two lab items, collects a variable set,
 * maps one variable to another model's code with a transfer rule and runs it, marks the blood
 * pressure in a note and measures the blood pressure cleaning rule on it, and analyses a
 * MIMIC-like ICU table imported as CSV. The lab item codes are the story's own.
 */
test('templates, a set, a transfer run, an annotation and a MIMIC-style analysis', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(240_000);
  const run = runId();
  const [itemA, itemB] = [`A${run}`, `B${run}`];
  const prefix = `t${run}`.toLowerCase();
  const key = await apiLogin(ownAdmin);
  const lab = (item: string, valueNum: number, day: string) => ({
    table: 'labResults',
    row: { itemCode: item, itemName: item, valueNum, unit: 'U/L', collectedAt: `${day}T08:00:00Z` },
  });
  const note = '体格检查：血压120/80mmHg，心率78次/分。';
  await patientWithRecords(key, { mrn: `VLM${run}`, name: `变量库${run}`, gender: 1 }, [
    { table: 'visits', row: { kind: 'outpatient', admitAt: '2024-01-01T08:00:00Z' } },
    lab(itemA, 40, '2024-01-05'),
    lab(itemA, 90, '2024-01-20'),
    lab(itemB, 33, '2024-01-06'),
    {
      table: 'documents',
      row: { kind: 'progress', title: `查体记录${run}`, body: note, writtenAt: '2024-01-02T10:00:00+08:00' },
    },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // 1. A template: first, maximum and mean of a lab item within 30 days of the first visit.
  await page.goto('/variable-library/variable-tempalte');
  const templates = page.getByTestId('variable-templates');
  await templates.getByRole('button', { name: '新增变量模板' }).click();
  await dialog(page).getByLabel('名称').fill(`肝酶模板${run}`);
  await dialog(page).getByLabel('变量名前缀').fill(prefix);
  await dialog(page).getByLabel('单位').fill('U/L');
  await expect(dialog(page).getByLabel('天数（之后 N 天内）')).toHaveValue('30');
  await settled(page);
  await screenshot(page, 'variable-template-form');
  await okButton(page).click();
  await expect(dialog(page)).toBeHidden();
  const trow = page.getByRole('row', { name: new RegExp(`肝酶模板${run}`) });
  await expect(trow).toContainText('最大值');
  await trow.getByRole('button', { name: '生成变量' }).click();
  await dialog(page).getByLabel('项目').fill(`${itemA}=测试酶甲=Enzyme A\n${itemB}=测试酶乙=Enzyme B`);
  await dialog(page).getByRole('button', { name: '生成变量' }).click();
  await expect(dialog(page).getByTestId('applied')).toContainText('新建 6 个变量');
  await expect(dialog(page).getByTestId('applied')).toContainText(`${prefix}_${itemA.toLowerCase()}_max_30d`);
  await settled(page);
  await screenshot(page, 'variable-template-applied');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await screenshot(page, 'variable-templates');

  // 2. A variable set for the study: the maximum of enzyme A and the mean of enzyme B.
  await page.goto('/variable-library/variable-set');
  await page.getByTestId('variable-sets').getByRole('button', { name: '新增变量集' }).click();
  await dialog(page).getByLabel('名称').fill(`肝酶研究${run}`);
  const pickVars = dialog(page).locator('.ant-select', {
    has: page.getByRole('combobox', { name: '变量', exact: true }),
  });
  await chooseOption(
    page,
    pickVars,
    `${prefix}_${itemA.toLowerCase()}_max_30d`,
    `${prefix}_${itemA.toLowerCase()}_max`,
  );
  await chooseOption(
    page,
    pickVars,
    `${prefix}_${itemB.toLowerCase()}_mean_30d`,
    `${prefix}_${itemB.toLowerCase()}_mean`,
  );
  await dialog(page).getByLabel('名称').click();
  await settled(page);
  await screenshot(page, 'variable-set-form');
  await okButton(page).click();
  await expect(dialog(page)).toBeHidden();
  const srow = page.getByRole('row', { name: new RegExp(`肝酶研究${run}`) });
  await expect(srow).toContainText('2 个变量');
  await expect(srow).toContainText('测试酶甲最大值');
  await screenshot(page, 'variable-sets');

  // 3. A transfer rule: enzyme A's maximum in µkat/L under another model's code, run as a job.
  await page.goto('/variable-library/transfer-rule');
  await page.getByTestId('transfer-rules').getByRole('button', { name: '新增转换规则' }).click();
  await dialog(page).getByLabel('名称').fill(`换算${run}`);
  await dialog(page).getByLabel('目标模型 / 版本').fill('SDTM LB');
  await chooseOption(
    page,
    dialog(page).locator('.ant-select', { has: page.getByLabel('源变量') }),
    `${prefix}_${itemA.toLowerCase()}_max_30d`,
    `${prefix}_${itemA.toLowerCase()}_max`,
  );
  await dialog(page).getByLabel('目标编码').fill('LBSTRESN_ALT');
  await chooseOption(
    page,
    dialog(page).locator('.ant-select', { has: page.getByLabel('取值转换') }),
    '线性换算',
  );
  await dialog(page).getByLabel('系数').fill('0.0167');
  await settled(page);
  await screenshot(page, 'transfer-rule-form');
  await okButton(page).click();
  await expect(dialog(page)).toBeHidden();
  const rrow = page.getByRole('row', { name: new RegExp(`换算${run}`) });
  await expect(rrow).toContainText('LBSTRESN_ALT');
  await screenshot(page, 'transfer-rules');
  await rrow.getByRole('button', { name: '运行' }).click();
  await expect(page).toHaveURL(/transfer-list/);
  const runRow = page.getByRole('row', { name: new RegExp(`换算${run}`) }).first();
  await expect(runRow).toContainText('成功', { timeout: 60_000 });
  await expect(runRow).toContainText('LBSTRESN_ALT: 1 / 0');
  const download = page.waitForEvent('download');
  await runRow.getByRole('button', { name: '下载 CSV' }).click();
  expect((await download).suggestedFilename()).toMatch(/^transfer-\d+\.csv$/);
  await settled(page);
  await screenshot(page, 'transfer-list');

  // 4. Annotation: mark the note's blood pressure and measure the built-in blood pressure rule.
  await page.goto('/system/annotation');
  await page.getByTestId('annotation-search').fill(`VLM${run}`);
  await page.getByTestId('annotation-search').press('Enter');
  await page.getByRole('row', { name: new RegExp(`查体记录${run}`) }).click();
  const editor = page.getByTestId('annotation-editor');
  await expect(editor.getByTestId('annotation-text')).toContainText('血压120/80mmHg');
  for (const [text, label] of [
    ['120', 'SBP'],
    ['80', 'DBP'],
  ] as const) {
    await editor.getByTestId('span-text').fill(text);
    await chooseOption(page, editor.getByTestId('span-label'), new RegExp(`^${label} `), label);
    await editor.getByTestId('add-span').click();
  }
  await expect(editor.getByTestId('span-list')).toContainText('120 → SBP');
  await editor.getByTestId('save-annotation').click();
  await expect(page.getByRole('row', { name: new RegExp(`查体记录${run}`) })).toContainText('2');
  await settled(page);
  await screenshot(page, 'annotation');
  const evaluation = page.getByTestId('annotation-evaluation');
  await chooseOption(page, evaluation.getByTestId('evaluate-rule'), '血压');
  await evaluation.getByTestId('evaluate').click();
  const sbp = evaluation.getByTestId('evaluation-table').getByRole('row', { name: /^SBP/ });
  await expect(sbp).toBeVisible();
  await expect(evaluation.getByTestId('evaluation-table')).toContainText('精确率');
  await settled(page);
  await evaluation.scrollIntoViewIfNeeded();
  await screenshot(page, 'annotation-evaluation');

  // 5. Analysis on an external dataset: a MIMIC-like ICU stay table, logistic regression of death.
  await page.goto('/scientific-research-subject/analysis-mining/mimic');
  await page.getByTestId('mimic-name').fill(`ICU${run}`);
  await page.locator('input[type=file]').setInputFiles({
    name: 'icustays.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(mimicCsv()),
  });
  await page.getByTestId('mimic-import').click();
  const drow = page.getByRole('row', { name: new RegExp(`ICU${run}`) });
  await expect(drow).toContainText('MIMIC ICU 住院表');
  await drow.getByRole('radio').check();
  await expect(page.getByTestId('mimic-preview')).toContainText('los');
  const analyse = page.getByTestId('mimic-analyse');
  await chooseOption(page, analyse.getByTestId('method'), 'Logistic 回归');
  await chooseOption(page, analyse.getByTestId('vars'), 'anchor_age');
  await chooseOption(page, analyse.getByTestId('vars'), /^LOS/, 'los');
  await chooseOption(page, analyse.getByTestId('outcome'), 'hospital_expire_flag');
  await analyse.getByTestId('run-analysis').click();
  const result = analyse.getByTestId('analysis-result');
  await expect(result).toContainText('anchor_age', { timeout: 60_000 });
  await settled(page);
  await screenshot(page, 'mimic-analysis');
  await switchLanguage(page, 'English');
  await expect(page.getByTestId('mimic')).toContainText('External dataset analysis');
  await settled(page);
  await screenshot(page, 'mimic-analysis-en');
  await page.goto('/variable-library/variable-tempalte');
  await expect(page.getByTestId('variable-templates')).toContainText('Variable templates');
  await settled(page);
  await screenshot(page, 'variable-templates-en');
});
