import type { Page } from '@playwright/test';
import {
  account,
  apiLogin,
  expect,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * The research story of issue 9: a PI creates a subject through the steps, recruits patients by
 * its criteria, moves it through its statuses, builds the analysis dataset, runs a descriptive
 * analysis and a logistic regression and reads the results, and concludes the subject.
 */
// Names of the running attempt (set as the test starts): a parallel or repeated attempt has its own.
let RUN = '';
let NAME = '';

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
    // Follow-up for the survival variable: a myocardial infarction for some, a later visit for the rest.
    const later = `2024-0${4 + (i % 5)}-15T08:00:00+08:00`;
    if (i % 4 === 1)
      await restCall('POST', `cdr/patients/${id}/records`, key, {
        table: 'diagnoses',
        row: { icd10: 'I21.9', name: '急性心肌梗死', diagnosedAt: later },
      });
    else
      await restCall('POST', `cdr/patients/${id}/records`, key, {
        table: 'visits',
        row: { kind: 'outpatient', admitAt: later },
      });
  }
}

/** A published follow-up form whose questions the dataset takes as variables. */
async function seedForm(key: string) {
  const made = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `E2E随访表${RUN}`,
    definition: {
      pages: [
        {
          key: 'visit',
          title: '随访',
          items: [
            { key: 'hba1c', type: 'textQuestion', title: '糖化血红蛋白', textType: 'number' },
            {
              key: 'smoker',
              type: 'radio',
              title: '吸烟',
              options: [
                { name: '否', code: 0 },
                { name: '是', code: 1 },
              ],
            },
            { key: 'note', type: 'textQuestion', title: '备注', textType: 'textarea' },
          ],
        },
      ],
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const formId = made.body.data.id;
  expect((await restCall('POST', `crf/forms/${formId}/publish`, key, { note: 'v1' })).status).toBe(200);
  return formId;
}

/** Submits a follow-up record for each of this run's recruited patients through the CRF API. */
async function fillRecords(key: string, subjectId: number, formId: number) {
  const mine: Array<{ id: number; mrn: string }> = [];
  for (let page = 1; ; page++) {
    const r = await restCall<{ patients: { total: number; items: Array<{ id: number; mrn: string }> } }>(
      'GET',
      `research/subjects/${subjectId}/data?page=${page}&size=200`,
      key,
    );
    const items = r.body.data.patients.items;
    mine.push(...items.filter((p) => p.mrn.startsWith(`E2E${RUN}-`)));
    if (page * 200 >= r.body.data.patients.total) break;
  }
  expect(mine).toHaveLength(24);
  for (const p of mine) {
    const i = Number(p.mrn.split('-').pop());
    const r = await restCall('POST', `crf/forms/${formId}/records`, key, {
      patientId: p.id,
      submit: true,
      answers: { hba1c: 5 + ((i * 7) % 10) * 0.3, smoker: i % 3 === 0 ? 1 : 0 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

/**
 * Picks an option of a select; `typed` is typed first into a searchable one (a list of users is
 * long, other stories add users, and only the options scrolled into view are drawn).
 */
async function pick(page: Page, testId: string, option: string, typed?: string) {
  const select = page.getByTestId(testId);
  await select.click();
  if (typed) await page.keyboard.type(typed);
  // The dropdown of this select (it names its list in aria-controls), not another one still closing.
  const list = await select.locator('input').first().getAttribute('aria-controls');
  const dropdown = list
    ? page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${list}"]`) })
    : page.locator('.ant-select-dropdown:visible');
  await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
  await page.keyboard.press('Escape');
}

/** Moves that stop recruiting or end the subject ask first (issue 16); the others happen at once. */
const ASKS_FIRST = new Set(['recruitmentStopped', 'closed', 'topicConcluded']);

async function moveTo(page: Page, to: string) {
  await page.getByTestId(`move-${to}`).click();
  if (ASKS_FIRST.has(to)) {
    const confirm = page.locator('.ant-popover:visible').getByRole('button', { name: '确认变更' });
    await expect(page.getByTestId(`move-${to}`)).toBeVisible(); // nothing moved before the answer
    await confirm.click();
  }
  await expect(page.getByTestId(`move-${to}`)).toHaveCount(0);
}

test('a PI runs a subject from the step form to a logistic regression and its conclusion', async ({
  page,
}) => {
  test.setTimeout(300_000);
  RUN = runId();
  NAME = `E2E糖尿病队列${RUN}`;
  const admin = account('admin');
  const key = await apiLogin(admin);
  await seedPatients(key);
  const formId = await seedForm(key);
  await signInToWorkbench(page, admin);

  // First the PI creates the subject through the steps: basics, then the team.
  await page.goto('/scientific-research-subject/create-subject');
  await page.getByLabel('课题名称').fill(NAME);
  await page.getByRole('button', { name: '下一步' }).click();
  await pick(page, 'member-user', 'researcher', 'researcher');
  await pick(page, 'member-role', '统计师');
  await page.getByTestId('member-add').click();
  await expect(page.getByTestId('members-table').getByText('统计师')).toBeVisible();
  await screenshot(page, 'research-0-team');
  await page.getByRole('button', { name: '下一步' }).click();
  // Eligibility in the cohort condition builder of the disease library: a fasting glucose of at least 4.
  await page.getByTestId('add-inclusion').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: '检验结果' }).click();
  const glucose = page.getByTestId('condition-inclusion-0');
  await glucose.getByLabel('检验项目编码').fill('GLU');
  await glucose.getByLabel('最小值').fill('4');
  await expect(page.getByTestId('criteria-count')).toHaveText(/当前符合条件的患者：\d+ 人/);
  await screenshot(page, 'research-1-criteria');
  await page.getByRole('button', { name: '下一步' }).click();
  // Variables come from the hospital's own data: searched by name or code, not a fixed list.
  await expect(page.getByRole('checkbox', { name: '年龄' })).toBeChecked();
  await pick(page, 'var-lab', '空腹血糖', 'GLU');
  await pick(page, 'var-diagnosis', '2型糖尿病', 'E11');
  await pick(page, 'var-diagnosis', '急性心肌梗死', 'I21');
  const picked = page.getByTestId('picked-variables');
  await expect(picked.getByRole('row')).toHaveCount(4);
  await pick(page, 'var-use-I21', '生存结局');
  await pick(page, 'crf-form', `E2E随访表${RUN}`);
  await screenshot(page, 'research-1b-variables');
  await page.getByRole('button', { name: '下一步' }).click();
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page).toHaveURL(/project-data\?id=\d+/);
  // The page's card and its tab both name the subject.
  await expect(page.getByTestId('page-content').getByText(NAME, { exact: true })).toBeVisible();
  await expect(page.locator('[data-tab-key]').filter({ hasText: NAME })).toBeVisible();
  await expect(page.locator('.task-status-staged')).toBeVisible();
  await expect(page.locator('.ant-descriptions-item').filter({ hasText: '负责人' })).toContainText(
    '系统管理员 (admin)',
  );
  const subjectId = Number(new URL(page.url()).searchParams.get('id'));

  // The team panel: the researcher is on the team as statistician; the PI makes them data manager.
  const team = page.getByTestId('team-panel');
  await expect(team.getByText('科研人员 (researcher)')).toBeVisible();
  await team
    .getByRole('row', { name: /researcher/ })
    .locator('.ant-select')
    .click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: '数据管理员' })
    .click();
  await page.getByTestId('save-members').click();
  await expect(page.getByText('成员已保存')).toBeVisible();
  const researcherId = (
    await restCall<Array<{ userId: number; userName: string }>>('GET', 'research/users', key)
  ).body.data.find((u) => u.userName === 'researcher')!.userId;
  const team1 = await restCall<{ members: Array<{ userId: number; role: string }> }>(
    'GET',
    `research/subjects/${subjectId}`,
    key,
  );
  expect(team1.body.data.members).toContainEqual(
    expect.objectContaining({ userId: researcherId, role: 'dataManager' }),
  );

  // It recruits by its criteria, stops, and prepares the data.
  await moveTo(page, 'recruiting');
  await page.getByTestId('recruit').click();
  await expect(page.getByText(/新入组 \d+ 人/)).toBeVisible();
  await fillRecords(key, subjectId, formId);
  await moveTo(page, 'recruitmentStopped');
  await moveTo(page, 'dataPreparing');
  await screenshot(page, 'research-2-project-data');
  const subjectUrl = page.url();

  // Data reduction builds the analysis dataset as a job.
  // Data reduction builds the analysis dataset as a job, with two CRF questions as variables.
  await page.getByRole('button', { name: '数据整理' }).click();
  const crfItems = page.getByTestId('crf-items');
  await crfItems.getByText('糖化血红蛋白').click();
  await crfItems.getByText('吸烟').click();
  await expect(crfItems.getByRole('checkbox', { name: /备注/ })).toBeDisabled();
  await screenshot(page, 'research-2b-crf-items');
  await page.getByTestId('build-dataset').click();
  await expect(page.getByRole('cell', { name: '就绪' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: '预览' }).first().click();
  await expect(page.getByRole('columnheader', { name: '糖化血红蛋白' })).toBeVisible();
  await page.goto(subjectUrl);
  await moveTo(page, 'dataPrepared');

  // Analysis: descriptive statistics, then a logistic regression; each result read in both languages.
  await page.getByRole('button', { name: '分析挖掘' }).click();
  await pick(page, 'vars', '空腹血糖');
  await page.getByTestId('run-analysis').click();
  const result = page.getByTestId('analysis-result');
  for (const header of ['变量', '例数', '缺失', '均值', '标准差', '中位数', '四分位数（Q1–Q3）'])
    await expect(result.getByRole('columnheader', { name: header, exact: true })).toBeVisible({
      timeout: 30_000,
    });
  await expect(result.getByRole('columnheader', { name: 'Mean' })).toHaveCount(0);
  await expect(result.getByRole('cell', { name: '空腹血糖 (glu)', exact: true })).toBeVisible();
  await screenshot(page, 'research-3-descriptive');
  await switchLanguage(page, 'English');
  for (const header of ['Variable', 'n', 'Missing', 'Mean', 'SD', 'Median', 'Q1–Q3'])
    await expect(result.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await screenshot(page, 'research-3-descriptive-en');
  await switchLanguage(page, '简体中文');

  await pick(page, 'method', 'Logistic 回归');
  await pick(page, 'outcome', '糖尿病（E11）');
  await pick(page, 'vars', '糖化血红蛋白');
  await page.getByTestId('run-analysis').click();
  await expect(result.getByRole('columnheader', { name: '比值比 OR (95% CI)' })).toBeVisible({
    timeout: 30_000,
  });
  for (const header of ['回归系数', '标准误', 'z 值（Wald）', 'P 值'])
    await expect(result.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await expect(result.getByRole('cell', { name: '截距', exact: true })).toBeVisible();
  await expect(result.getByRole('cell', { name: '空腹血糖 (glu)', exact: true })).toBeVisible();
  await expect(result.getByRole('cell', { name: '糖化血红蛋白 (hba1c)', exact: true })).toBeVisible();
  await expect(result.getByText('因缺失剔除')).toBeVisible();
  await screenshot(page, 'research-4-logistic');
  await switchLanguage(page, 'English');
  await expect(result.getByRole('columnheader', { name: 'OR (95% CI)' })).toBeVisible();
  for (const header of ['Term', 'Estimate', 'SE', 'z', 'p'])
    await expect(result.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  await expect(result.getByRole('cell', { name: '(Intercept)', exact: true })).toBeVisible();
  await expect(result.getByText('Dropped')).toBeVisible();
  await screenshot(page, 'research-4-logistic-en');
  await switchLanguage(page, '简体中文');

  // A t-test of glucose between smokers and non-smokers, then survival curves by smoking.
  await pick(page, 'method', 't 检验');
  await pick(page, 'outcome', '空腹血糖');
  await pick(page, 'group', '吸烟');
  await page.getByTestId('run-analysis').click();
  await expect(result.getByText('Welch t 检验')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole('columnheader', { name: '吸烟', exact: true })).toBeVisible();
  // A choice item's levels read as its options' labels (0/1 are 否/是).
  await expect(result.getByText('均值（吸烟 = 否）')).toBeVisible();
  await screenshot(page, 'research-4b-ttest');
  await pick(page, 'method', '生存分析（Kaplan-Meier）');
  await pick(page, 'time', '急性心肌梗死生存（I21）（随访天数）');
  await pick(page, 'event', '急性心肌梗死生存（I21）（是否发生）');
  await page.getByTestId('run-analysis').click();
  await expect(result.getByRole('columnheader', { name: '中位生存时间（天）' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(result.getByRole('columnheader', { name: '事件数' })).toBeVisible();
  await expect(result.getByRole('cell', { name: '吸烟 = 是', exact: true })).toBeVisible();
  await page.waitForTimeout(1500); // the curves finish drawing before the picture (not a timing assertion)
  await screenshot(page, 'research-4c-km');
  await switchLanguage(page, 'English');
  await expect(result.getByRole('columnheader', { name: 'Median survival (days)' })).toBeVisible();
  await screenshot(page, 'research-4c-km-en');
  await switchLanguage(page, '简体中文');

  // Calculation done, then concluded: no move is left.
  await page.goto(subjectUrl);
  await moveTo(page, 'calculationDone');
  await moveTo(page, 'topicConcluded');
  await expect(page.getByText('终态，不能再变更')).toBeVisible();
  await expect(
    page.locator('.task-status-closed, .task-status-concluded, [class*="task-status"]').first(),
  ).toBeVisible();
  await screenshot(page, 'research-5-concluded');

  // The subject list finds the subject by its member, status and type.
  await page.goto('/scientific-research-subject/subject-list/project-data');
  await pick(page, 'member-filter', '科研人员 (researcher)', 'researcher');
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(page.getByRole('button', { name: NAME })).toBeVisible();
  // The PI by display name, the login name beside it, as on the subject's page.
  await expect(page.getByRole('row').filter({ hasText: NAME })).toContainText('系统管理员 (admin)');
  await screenshot(page, 'research-6-member-filter');

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
