import type { Page } from '@playwright/test';
import {
  apiLogin,
  expect,
  patientWithRecords,
  runId,
  screenshot,
  signInToWorkbench,
  test,
} from '../fixtures';

/** Picks options of a multiple select by the text typed into it. */
async function pick(page: Page, label: string, typed: string, option: RegExp) {
  const select = page.locator('.ant-select', { has: page.getByLabel(label) });
  await select.click();
  await page.getByLabel(label).fill(typed);
  await page.locator('.ant-select-item-option', { hasText: option }).first().click();
  await page.keyboard.press('Escape');
}

/**
 * Data cleaning (issue 18): a data manager tries a sentence on 句子测试 and sees what each rule
 * read and why, then runs a cleaning task over the synthetic notes of one day (the story's own
 * patient, on a day of its own far in the future, so other stories' documents stay out) that
 * extracts blood pressure and HBV-DNA, follows it to the end, reads the values with their
 * sentences, and finds them in the patient's personal view.
 */
test('a sentence is tried, a cleaning task extracts blood pressure and HBV-DNA from notes, the values show with their sentence', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const day = new Date(Date.UTC(2036, 0, 1) + (Number(run) % 3000) * 86_400_000).toISOString().slice(0, 10);
  const key = await apiLogin(ownAdmin);
  const note = (sbp: number, hbv: string) =>
    `主诉：乏力1月。\n现病史：患者1月前无明显诱因出现乏力，外院查HBV-DNA ${hbv}。\n体格检查：T 36.8℃，P 78次/分，血压${sbp}/80mmHg。双下肢无水肿。`;
  const patientId = await patientWithRecords(key, { mrn: `CLN${run}`, name: `清洗${run}`, gender: 1 }, [
    {
      table: 'documents',
      row: {
        kind: 'admission',
        title: '入院记录',
        body: note(138, '1.2×10^5 IU/ml'),
        writtenAt: `${day}T08:00:00+08:00`,
      },
    },
    {
      table: 'documents',
      row: {
        kind: 'progress',
        title: '病程记录',
        body: note(126, '1.2E+05 IU/mL'),
        writtenAt: `${day}T15:00:00+08:00`,
      },
    },
  ]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // 句子测试: the built-in rules read the pressure pair, the viral load and a denied fever.
  await page.goto('/data-clean/sentence-test');
  await page.getByTestId('sentence-input').fill('血压120/80mmHg，HBV-DNA 1.2×10^5 IU/ml，否认发热');
  await page.getByRole('button', { name: /运\s?行/ }).click();
  const result = page.getByTestId('sentence-result');
  await expect(result.getByTestId('value-SBP')).toHaveText('120');
  await expect(result.getByTestId('value-DBP')).toHaveText('80');
  await expect(result.getByTestId('value-HBV_DNA')).toHaveText('120000');
  await expect(result).toContainText('否定');
  await expect(result.locator('mark[data-role="trigger"]').first()).toHaveText('血压');
  await screenshot(page, 'cleaning-sentence-test');

  // 清洗任务: blood pressure and HBV-DNA over the story's day.
  await page.goto('/data-clean/cleaning-tasks');
  await page.getByTestId('task-name').fill(`血压与病毒载量${run}`);
  await pick(page, '清洗规则', '血压', /^血压/);
  await pick(page, '清洗规则', 'HBV', /HBV-DNA/);
  for (const label of ['文书开始日期', '文书结束日期']) {
    await page.getByLabel(label).fill(day);
    await page.getByLabel(label).press('Tab');
  }
  await page.getByTestId('task-create').click();
  const row = page.getByTestId('cleaning-tasks').locator('tr', { hasText: `血压与病毒载量${run}` });
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(row).toContainText('成功');
  await screenshot(page, 'cleaning-task-done');
  await row.getByRole('button', { name: '查看结果' }).click();
  const values = page.getByRole('dialog').getByTestId('cleaned-values');
  await expect(values).toContainText('收缩压 (SBP)');
  await expect(values).toContainText('138 mmHg');
  await expect(values).toContainText('120000 IU/mL');
  await expect(values).toContainText('血压138/80mmHg');
  await screenshot(page, 'cleaning-task-values');
  await page.keyboard.press('Escape');

  // The personal view shows the values read from text, each with its document and sentence.
  await page.goto(`/personalInformation/inHospitalView?id=${patientId}`);
  await page.getByTestId('tab-cleaned').click();
  const tab = page.getByTestId('cleaned-values');
  await expect(tab).toContainText('126 mmHg');
  await expect(tab).toContainText('病程记录');
  await expect(tab).toContainText('体格检查');
  await screenshot(page, 'cleaning-patient-view');

  // The rules page lists the built-in rules beside the app's own.
  await page.goto('/data-clean/cleaning-rules-configuration');
  await expect(page.getByTestId('cleaning-rules')).toContainText('HBV-DNA 定量');
  await screenshot(page, 'cleaning-rules');
});
