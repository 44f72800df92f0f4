import {
  apiLogin,
  chooseOption,
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
 * Derived data (issue 17): a data manager writes a BMI formula over the latest physical exam,
 * tests it on a patient (the inputs it used and the value), groups it into an indicator
 * template, adds the built-in Child-Pugh scale and fills it for the patient, whose filled
 * scales then list it. The patient and names are the story's own.
 */
test('a data manager writes and tests a formula, builds an indicator template and fills Child-Pugh', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(ownAdmin);
  const mrn = `FM${run}`;
  const name = `公式${run}`;
  await patientWithRecords(key, { mrn, name, gender: 1, birthDate: '1970-03-01' }, [
    {
      table: 'physicalExams',
      row: { item: '身高', value: '160', unit: 'cm', recordedAt: '2024-01-02T09:00:00+08:00' },
    },
    {
      table: 'physicalExams',
      row: { item: '体重', value: '64', unit: 'kg', recordedAt: '2024-01-02T09:00:00+08:00' },
    },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // 公式编辑器: a BMI over the latest height and weight, tested on the patient before saving.
  await page.goto('/data-lake/formula-editor');
  const formulas = page.getByTestId('formulas');
  await expect(formulas).toContainText('公式编辑器');
  await formulas.getByRole('button', { name: '新增公式' }).click();
  const drawer = page.getByTestId('formula-drawer');
  await drawer.getByLabel('名称').fill(`BMI${run}`);
  await drawer.getByLabel('单位').fill('kg/m²');
  const decimals = drawer.getByLabel('小数位');
  await decimals.fill('1');
  const variable = (i: number) => drawer.getByPlaceholder('变量名').nth(i);
  // A variable's item code, typed once its source is the physical exam. The code box re-renders
  // when its row's source changes; on a loaded machine a fill landing in that render was seen lost
  // (CI: the compute then named 身高's empty code), so the code is typed again until it holds.
  const examCode = (i: number) => drawer.getByPlaceholder('体格检查项目，如 体重').nth(i);
  const fillCode = (i: number, code: string) =>
    expect(async () => {
      if ((await examCode(i).inputValue()) !== code) await examCode(i).fill(code);
      await expect(examCode(i)).toHaveValue(code, { timeout: 2_000 });
    }).toPass();
  await variable(0).fill('体重');
  await chooseOption(page, drawer.locator('.ant-select').nth(0), '最近一次体格检查');
  await fillCode(0, '体重');
  await drawer.getByRole('button', { name: '添加变量' }).click();
  await variable(1).fill('身高');
  await chooseOption(page, drawer.locator('.ant-select').nth(1), '最近一次体格检查');
  await fillCode(1, '身高');
  // A formula naming a variable it does not have is refused with the name.
  await drawer.getByTestId('formula-expression').fill('体重 / (身高 / 100) ^ 2 + 腰围');
  await chooseOption(page, drawer.getByTestId('formula-test-patient'), mrn, mrn);
  await fillCode(0, '体重');
  await fillCode(1, '身高');
  await drawer.getByRole('button', { name: /计\s?算/ }).click();
  await expect(drawer.getByTestId('formula-test')).toContainText('变量“腰围”未定义');
  await drawer.getByTestId('formula-expression').fill('体重 / (身高 / 100) ^ 2');
  await drawer.getByRole('button', { name: /计\s?算/ }).click();
  // 64 kg / 1.6² = 25.0
  const result = drawer.getByTestId('formula-test-result');
  await expect(result).toContainText('结果：25.0 kg/m²');
  await expect(result).toContainText(mrn);
  await expect(drawer.getByTestId('formula-test')).toContainText('64 kg');
  await expect(drawer.getByTestId('formula-test')).toContainText('2024-01-02 09:00');
  await settled(page);
  await screenshot(page, 'formula-test');
  await drawer.getByRole('button', { name: /保\s?存/ }).click();
  await expect(drawer).toBeHidden();
  const row = formulas.getByRole('row', { name: new RegExp(`BMI${run}`) });
  await expect(row).toContainText('体重 ← 最近一次体格检查 体重');
  await screenshot(page, 'formula-editor');

  // 指标模板: the formula grouped for reuse.
  await page.goto('/data-lake/indicatrixTemplate');
  const templates = page.getByTestId('indicator-templates');
  await templates.getByRole('button', { name: '新增指标模板' }).click();
  await dialog(page).getByLabel('名称').fill(`体格指标${run}`);
  await chooseOption(page, dialog(page).locator('.ant-select'), `BMI${run}`, `BMI${run}`);
  // A multiple select stays open after a choice: a click elsewhere in the dialog closes it.
  await dialog(page).getByLabel('名称').click();
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  const tRow = templates.getByRole('row', { name: new RegExp(`体格指标${run}`) });
  await expect(tRow).toContainText(`1. BMI${run} (kg/m²)`);
  await screenshot(page, 'indicator-templates');

  // 评估量表: Child-Pugh added with one click and filled for the patient.
  await page.goto('/data-lake/evaluation-scale');
  const scales = page.getByTestId('scales');
  await scales.getByRole('button', { name: '内置模板' }).click();
  const builtin = dialog(page).getByRole('listitem').filter({ hasText: 'Child-Pugh 肝功能分级' });
  const add = builtin.getByRole('button', { name: /添\s?加/ });
  // Child-Pugh is the hospital's, not the story's: an attempt beside this one may have added it
  // after this page read its list, and then the page is read again to show it.
  const addedHere = await add.isEnabled();
  if (addedHere) await add.click();
  await expect(builtin.getByRole('button', { name: '已添加' })).toBeVisible();
  await dialog(page).locator('.ant-modal-close').click();
  await expect(dialog(page)).toBeHidden();
  if (!addedHere) await page.reload();
  const sRow = scales.getByRole('row', { name: /Child-Pugh 肝功能分级/ }).first();
  await expect(sRow).toContainText('A 级 5–6');
  await sRow.getByRole('button', { name: /填\s?写/ }).click();
  const fill = page.getByTestId('scale-fill');
  await chooseOption(page, fill.getByTestId('scale-fill-patient'), mrn, mrn);
  // Bilirubin 34–50 (2), albumin >35 (1), INR <1.7 (1), mild ascites (2), no encephalopathy (1) = 7, class B.
  for (const [item, option] of [
    ['总胆红素', '34–50 μmol/L'],
    ['白蛋白', '>35 g/L'],
    ['凝血酶原时间 INR', '<1.7'],
    ['腹水', '轻度'],
    ['肝性脑病', '无'],
  ] as const)
    await fill
      .locator('.ant-form-item')
      .filter({ hasText: item })
      .getByRole('radio', { name: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\<>]/g, '\\$&')}`) })
      .check();
  await expect(fill.getByTestId('scale-fill-total')).toContainText('7');
  await expect(fill.getByTestId('scale-fill-total')).toContainText('B 级');
  await fill.getByTestId('scale-fill-total').scrollIntoViewIfNeeded();
  await settled(page);
  await screenshot(page, 'scale-fill');
  await dialog(page)
    .getByRole('button', { name: /保\s?存/ })
    .click();
  await expect(fill).toBeHidden();
  const history = page.getByTestId('scale-history');
  await expect(history).toContainText('Child-Pugh 肝功能分级');
  await expect(history.getByRole('row').nth(1)).toContainText('B 级');
  await screenshot(page, 'scales');

  await switchLanguage(page, 'English');
  await expect(scales).toContainText('Assessment scales');
  await expect(page.getByTestId('scale-history')).toContainText("Patient's filled scales");
  await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
  await screenshot(page, 'scales-en');
  await page.goto('/data-lake/formula-editor');
  await expect(formulas).toContainText('Formula editor');
  await expect(row).toContainText('体重 ← Latest physical exam 体重');
  await screenshot(page, 'formula-editor-en');
});
