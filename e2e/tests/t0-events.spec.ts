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

/**
 * T0 events (issue 17): a data manager defines "first diagnosis of a code" as a patient's index
 * date, has it calculated (the list follows the job), reads the patient's T0, then changes the
 * rule and sees the results marked stale until recalculated. The code is the story's own, so
 * only its patient matches, whatever other stories add.
 */
test('a data manager defines a T0 event, calculates it and reads each patient’s T0', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const code = `Q${run}`;
  const key = await apiLogin(ownAdmin);
  await patientWithRecords(key, { mrn: `T0${run}`, name: `零点${run}`, gender: 2 }, [
    { table: 'diagnoses', row: { icd10: code, name: '测试诊断', diagnosedAt: '2021-04-05T09:00:00+08:00' } },
    { table: 'diagnoses', row: { icd10: code, name: '测试诊断', diagnosedAt: '2019-07-08T09:00:00+08:00' } },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/data-lake/t0-event');
  const events = page.getByTestId('t0-events');
  await events.getByRole('button', { name: '新增 T0 事件' }).click();
  await dialog(page).getByLabel('名称').fill(`首次诊断${run}`);
  // The code is required for a diagnosis rule.
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toContainText('必填');
  await dialog(page).getByLabel('ICD-10 编码前缀').fill(code);
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`首次诊断${run}`) });
  await expect(row).toContainText(`首次诊断编码以 ${code} 开头`);
  await expect(row).toContainText('未计算');
  await row.getByRole('button', { name: '计算' }).click();
  await expect(row).toContainText('已计算');
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');
  await screenshot(page, 't0-events');
  await row.getByRole('button', { name: '患者' }).click();
  const drawer = page.getByTestId('t0-patients');
  await expect(drawer).toContainText(`T0${run}`);
  // The earlier of the two diagnoses is the T0.
  await expect(drawer).toContainText('2019-07-08 09:00');
  await expect(drawer).toContainText('诊断');
  await expect(page.getByTestId('t0-by-year')).toContainText('2019: 1');
  await settled(page);
  await screenshot(page, 't0-patients');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A changed rule makes the results stale until the next calculation.
  await row.getByRole('button', { name: '编辑' }).click();
  await dialog(page).getByLabel('ICD-10 编码前缀').fill(`${code}.9`);
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  await expect(row).toContainText('规则已变，待重算');
  await row.getByRole('button', { name: '重新计算' }).click();
  await expect(row).toContainText('已计算');
  await expect(row.getByRole('cell').nth(3)).toHaveText('0');

  await switchLanguage(page, 'English');
  await expect(events).toContainText('T0 events');
  await expect(row).toContainText('Calculated');
  await screenshot(page, 't0-events-en');
});
