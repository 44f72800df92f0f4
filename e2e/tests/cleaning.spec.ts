import type { Page } from '@playwright/test';
import {
  apiLogin,
  expect,
  patientWithRecords,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  test,
  waitForJob,
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
 * sentences, finds them in the patient's personal view, and sees a disease library's indicator
 * 收缩压 read from them. On the way: a runaway regex refused in the regex editor, a note split into
 * its sections, a sample of documents on 批量测试.
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
  const code = `B18.1C${run}`;
  const patientId = await patientWithRecords(key, { mrn: `CLN${run}`, name: `清洗${run}`, gender: 1 }, [
    {
      table: 'diagnoses',
      row: { icd10: code, name: '慢性乙型病毒性肝炎', diagnosedAt: `${day}T08:00:00+08:00` },
    },
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

  // A disease library whose CRF item 收缩压 reads the latest value from the notes.
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `清洗指标表${run}`,
    definition: {
      pages: [
        {
          key: 'base',
          title: '基线',
          items: [{ key: 'sbp', type: 'textQuestion', title: '收缩压 (mmHg)', textType: 'number' }],
        },
      ],
    },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' });
  const library = await restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
    name: `清洗专病库${run}`,
    crfFormId: form.body.data.id,
    criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [code] }], exclusion: [] },
    sourceRules: { sbp: 'latest cleaned.value where name = "收缩压"' },
  });
  expect(library.status, JSON.stringify(library.body)).toBe(200);
  const push = await restCall<{ jobId: number }>(
    'POST',
    `diseaselibrary/libraries/${library.body.data.id}/push`,
    key,
    {},
  );
  await waitForJob(key, push.body.data.jobId);
  await page.goto(`/zhuanbing-library/library-list-Crf?libraryId=${library.body.data.id}`);
  const rule = page.getByTestId('rule-row-sbp');
  await expect(rule).toContainText('文本结构化结果', { timeout: 60_000 });
  await rule.getByRole('button', { name: /试\s*算/ }).click();
  await expect(page.getByTestId('rule-trial-sbp')).toContainText('1 / 1');
  await expect(page.getByTestId('rule-trial-sbp')).toContainText('126');
  await screenshot(page, 'cleaning-library-indicator');

  // 正则文本: a pattern that could backtrack without end is refused, in words, under its field.
  await page.goto('/data-clean/reg_text');
  await page.getByLabel('正则表达式').fill('血糖(?<value>(\\d+)+)');
  await page.getByLabel('代码').fill('GLU');
  await page.getByLabel('名称', { exact: true }).fill('血糖');
  await page.getByTestId('draft-sentence').fill('空腹血糖 6.8 mmol/L');
  await page.getByRole('button', { name: /运\s?行/ }).click();
  await expect(page.locator('.ant-form-item-explain-error')).toContainText('重复的分组内不能再有重复');
  await screenshot(page, 'cleaning-regex-refused');
  // A pattern that is fine reads the value.
  await page.getByLabel('正则表达式').fill('血糖\\s?(?<value>\\d+(?:\\.\\d+)?)');
  await page.getByRole('button', { name: /运\s?行/ }).click();
  await expect(page.getByTestId('value-GLU')).toHaveText('6.8');
  await screenshot(page, 'cleaning-regex-tried');

  // 段落清洗: a whole note by its sections.
  await page.goto('/data-clean/paragraph-clean');
  await page.getByTestId('paragraph-input').fill(note(142, '3.4E+06 IU/mL'));
  await page.getByRole('button', { name: /运\s?行/ }).click();
  await expect(page.getByTestId('paragraph-sections')).toContainText('体格检查');
  await expect(page.getByTestId('value-SBP')).toHaveText('142');
  await screenshot(page, 'cleaning-paragraph');

  // 批量句子测试: one sentence a line.
  await page.goto('/data-clean/many-sentence-test');
  await page.getByTestId('sentence-input').fill('BP 135/85 mmHg\n谷丙转氨酶 88 IU/L\n考虑少量腹水');
  await page.getByRole('button', { name: /运\s?行/ }).click();
  await expect(page.getByTestId('sentence-result')).toContainText('3 句，4 个值');
  await screenshot(page, 'cleaning-many-sentences');

  // 句法规则: a built-in rule copied into the editor.
  await page.goto('/data-clean/syntactic-rules?copy=builtin:blood_pressure');
  await expect(page.getByLabel('名称', { exact: true }).first()).toHaveValue('收缩压');
  await screenshot(page, 'cleaning-syntactic-editor');

  // 批量测试: the story's notes are among the app's documents; a sample shows what the rule read.
  await page.goto('/data-clean/many-test');
  await pick(page, '清洗规则', '血压', /^血压/);
  await page.getByRole('button', { name: /运\s?行/ }).click();
  await expect(page.getByText('准确率').first()).toBeVisible();
  await screenshot(page, 'cleaning-many-test');

  await page.goto('/data-clean/cleaning-tasks-list');
  await expect(page.getByTestId('cleaning-tasks')).toContainText(`血压与病毒载量${run}`);
  await screenshot(page, 'cleaning-tasks-list');

  // The rules page lists the built-in rules beside the app's own.
  await page.goto('/data-clean/cleaning-rules-configuration');
  await expect(page.getByTestId('cleaning-rules')).toContainText('HBV-DNA 定量');
  await screenshot(page, 'cleaning-rules');
});
