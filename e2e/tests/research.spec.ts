import type { Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * The research story of issue 9: a PI creates a subject through the steps, recruits patients by
 * its criteria, moves it through its statuses, builds the analysis dataset, runs a descriptive
 * analysis and a logistic regression and reads the results, and concludes the subject.
 */
const RUN = Date.now() % 100000;
const NAME = `E2E糖尿病队列${RUN}`;

async function seedPatients(key: string) {
  for (let i = 0; i < 24; i++) {
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `E2E${RUN}-${i}`,
      name: `研究对象${i}`,
      gender: i % 2 ? 1 : 2,
      birthDate: `${1950 + i}-03-01`,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const id = p.body.data.id;
    const at = `2024-02-${String(1 + (i % 27)).padStart(2, '0')}T08:00:00+08:00`;
    const glucose = 4.5 + (i % 8) * 0.6;
    await restCall('POST', `cdr/patients/${id}/records`, key, {
      table: 'visits',
      row: { kind: 'outpatient', admitAt: at },
    });
    await restCall('POST', `cdr/patients/${id}/records`, key, {
      table: 'labResults',
      row: { itemCode: 'GLU', itemName: '空腹血糖', valueNum: glucose, unit: 'mmol/L', collectedAt: at },
    });
    if ((glucose >= 7 && i % 5 !== 0) || i % 7 === 0)
      await restCall('POST', `cdr/patients/${id}/records`, key, {
        table: 'diagnoses',
        row: { icd10: 'E11.9', name: '2型糖尿病', diagnosedAt: at },
      });
  }
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

async function moveTo(page: Page, to: string) {
  await page.getByTestId(`move-${to}`).click();
  await expect(page.getByTestId(`move-${to}`)).toHaveCount(0);
}

test('a PI runs a subject from the step form to a logistic regression and its conclusion', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const admin = account('admin');
  const key = await apiLogin(admin);
  await seedPatients(key);
  await signInToWorkbench(page, admin);

  // First the PI creates the subject through the steps.
  await page.goto('/scientific-research-subject/create-subject');
  await page.getByLabel('课题名称').fill(NAME);
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByLabel('空腹血糖下限（纳入）').fill('4');
  await expect(page.getByText(/当前符合条件的患者：\d+ 人/)).toBeVisible();
  await screenshot(page, 'research-1-criteria');
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page.getByText('空腹血糖 / Glucose')).toBeVisible();
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page).toHaveURL(/project-data\?id=\d+/);
  await expect(page.getByText(NAME)).toBeVisible();
  await expect(page.locator('.task-status-staged')).toBeVisible();

  // It recruits by its criteria, stops, and prepares the data.
  await moveTo(page, 'recruiting');
  await page.getByTestId('recruit').click();
  await expect(page.getByText(/新入组 \d+ 人/)).toBeVisible();
  await moveTo(page, 'recruitmentStopped');
  await moveTo(page, 'dataPreparing');
  await screenshot(page, 'research-2-project-data');
  const subjectUrl = page.url();

  // Data reduction builds the analysis dataset as a job.
  await page.getByRole('button', { name: '数据整理' }).click();
  await page.getByTestId('build-dataset').click();
  await expect(page.getByRole('cell', { name: 'ready' })).toBeVisible({ timeout: 30_000 });
  await page.goto(subjectUrl);
  await moveTo(page, 'dataPrepared');

  // Analysis: descriptive statistics, then a logistic regression.
  await page.getByRole('button', { name: '分析挖掘' }).click();
  await pick(page, 'vars', '空腹血糖 / Glucose');
  await page.getByTestId('run-analysis').click();
  const result = page.getByTestId('analysis-result');
  await expect(result.getByRole('columnheader', { name: 'Mean' })).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole('cell', { name: 'glu', exact: true })).toBeVisible();
  await screenshot(page, 'research-3-descriptive');

  await pick(page, 'method', 'Logistic 回归');
  await pick(page, 'outcome', '糖尿病 / Diabetes (E11)');
  await page.getByTestId('run-analysis').click();
  await expect(result.getByRole('columnheader', { name: 'OR (95% CI)' })).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole('cell', { name: 'glu', exact: true })).toBeVisible();
  await screenshot(page, 'research-4-logistic');

  // Calculation done, then concluded: no move is left.
  await page.goto(subjectUrl);
  await moveTo(page, 'calculationDone');
  await moveTo(page, 'topicConcluded');
  await expect(page.getByText('终态，不能再变更')).toBeVisible();
  await expect(
    page.locator('.task-status-closed, .task-status-concluded, [class*="task-status"]').first(),
  ).toBeVisible();
  await screenshot(page, 'research-5-concluded');

  // The server tells the same story.
  const id = Number(new URL(subjectUrl).searchParams.get('id'));
  const detail = await restCall<{ status: string; history: unknown[] }>(
    'GET',
    `research/subjects/${id}`,
    key,
  );
  expect(detail.body.data.status).toBe('topicConcluded');
  expect(detail.body.data.history).toHaveLength(7);
});

test('in multi-center mode the leading center creates a topic, sees pooled aggregates and the data checks', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const admin = account('admin');
  const key = await apiLogin(admin);
  const settings = await restCall<Record<string, string>>('GET', 'config/module', key);
  await restCall('PUT', 'config/module', key, { ...settings.body.data, mode: 'multi-center' });
  try {
    const ids: number[] = [];
    for (const i of [1, 2]) {
      const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
        mrn: `MC${RUN}-${i}`,
        name: `中心病人${i}`,
        gender: 1,
      });
      ids.push(p.body.data.id);
    }
    await signInToWorkbench(page, admin);
    await page.goto('/multi-center/create-topic');
    await page.getByLabel('主题名称').fill(`E2E多中心${RUN}`);
    await page.getByRole('button', { name: /提\s*交/ }).click();
    await expect(page).toHaveURL(/topic-description\?id=\d+/);
    const topicId = Number(new URL(page.url()).searchParams.get('id'));
    await restCall('POST', `mc/topics/${topicId}/cases`, key, {
      patientId: ids[0],
      values: { sbp: 140, dbp: 90 },
    });
    await restCall('POST', `mc/topics/${topicId}/cases`, key, { patientId: ids[1], values: { sbp: 400 } });
    await page.reload();
    await expect(page.getByText('汇总数据（去标识）')).toBeVisible();
    await expect(page.getByRole('cell', { name: 'n=2, x̄=270.0' })).toBeVisible();
    await screenshot(page, 'research-6-topic');
    await page.goto(`/multi-center/detection?id=${topicId}`);
    await expect(page.getByText('待修正')).toBeVisible();
    await expect(page.getByText(/收缩压 = 400/)).toBeVisible();
    await screenshot(page, 'research-7-detection');
  } finally {
    await restCall('PUT', 'config/module', key, {
      ...settings.body.data,
      mode: settings.body.data.mode ?? 'single-center',
    });
  }
});
