import type { Page } from '@playwright/test';
import {
  apiLogin,
  clientAddress,
  dialog,
  expect,
  okButton,
  ownAccount,
  patientWithRecords,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

const ok = (page: Page) => okButton(page).click();

/**
 * Coding and coding QC (issue 18): synthetic diagnoses (慢乙肝, 冠心病, 体检) and operations of a
 * patient of the story's own are coded from the keyboard (Enter accepts the first candidate,
 * / searches, N marks no code), operations in bulk; the CDR rows then carry the code beside their
 * original text; a second person reviews the batch in 编码质控, disagrees with one mapping (its
 * reason goes back to the coder) and sees the agreement rate. The hospital is shared with other
 * stories: tasks take all its terms, so the story filters to its own.
 */
test('a coder codes diagnoses and operations, a second person reviews them in coding QC', async ({
  page,
  browser,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(ownAdmin);
  // Local ICD-9-CM-3 codes (no licensed list is shipped): this run's own codes.
  for (const [code, name] of [
    [`51.23x${run}`, '腹腔镜下胆囊切除术'],
    [`47.09x${run}`, '阑尾切除术'],
  ] as const) {
    const r = await restCall('POST', 'terminology/local-codes/surgery', key, { code, displayZh: name });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  const at = '2026-03-01T08:00:00+08:00';
  await patientWithRecords(key, { mrn: `COD${run}`, name: `编码${run}`, gender: 1 }, [
    ...['慢乙肝', '慢乙肝', '冠心病', '体检'].map((name) => ({
      table: 'diagnoses',
      row: { name, diagnosedAt: at },
    })),
    ...['腹腔镜下胆囊切除术', '阑尾切除术'].map((name) => ({
      table: 'operations',
      row: { name, operatedAt: at },
    })),
  ]);

  await page.setViewportSize({ width: 1440, height: 900 });
  // A step that cannot happen fails within 30 s, not at the story's time limit.
  page.setDefaultTimeout(30_000);
  await signInToWorkbench(page, ownAdmin);

  // A disease coding task over every diagnosis of the hospital (coded before or not).
  await page.goto('/data-clean/disease-coding-task');
  await page.getByTestId('coding-new-task').click();
  await dialog(page).getByLabel('任务名称').fill(`诊断${run}`);
  await dialog(page).getByLabel('只取尚未编码的名称').uncheck();
  await ok(page);
  const row = page.getByRole('row', { name: new RegExp(`诊断${run}`) });
  await expect(row.getByRole('button', { name: '开始编码' })).toBeVisible({ timeout: 60_000 });
  await screenshot(page, 'coding-disease-tasks');
  await row.getByRole('button', { name: '开始编码' }).click();
  await expect(page).toHaveURL(/\/data-clean\/disease-coding\?taskId=/);

  const filter = async (term: string) => {
    await page.getByPlaceholder('按名称筛选').fill(term);
    await page.getByPlaceholder('按名称筛选').press('Enter');
    await expect(page.getByTestId(`coding-item-${term}`)).toBeVisible();
    // The name's cell: a click on a candidate would choose it.
    await page.getByTestId(`coding-item-${term}`).getByRole('cell').first().click();
  };
  // 慢乙肝: the first candidate is B18 through the abbreviation; Enter accepts it.
  await filter('慢乙肝');
  const hbv = page.getByTestId('coding-item-慢乙肝');
  await expect(hbv).toContainText('B18 慢性病毒性肝炎');
  await screenshot(page, 'coding-disease-review');
  await page.keyboard.press('Enter');
  await expect(hbv.getByText('B18', { exact: true }).last()).toBeVisible();
  await expect(hbv).toContainText('撤回');
  // 冠心病: picked by search (/ then the code).
  await filter('冠心病');
  await page.keyboard.press('/');
  await page.keyboard.type('I25');
  await page.locator('.ant-select-item-option', { hasText: 'I25 慢性缺血性心脏病' }).click();
  await expect(page.getByTestId('coding-item-冠心病')).toContainText('撤回');
  // 体检: no code (N).
  await filter('体检');
  await page.keyboard.press('n');
  await expect(page.getByTestId('coding-item-体检')).toContainText('无对应编码');

  // The CDR rows carry the code beside their original text.
  await page.getByRole('tab', { name: '临床数据（编码后）' }).click();
  await expect(page.getByRole('row', { name: /慢乙肝.*B18/ }).first()).toBeVisible();
  await expect(page.getByRole('row', { name: /体检/ }).first()).toContainText('未编码');
  await screenshot(page, 'coding-disease-rows');

  // Operations: the same path, accepted in bulk above 0.9.
  await page.goto('/data-clean/surgery-new-task');
  await page.getByTestId('coding-new-task').click();
  await dialog(page).getByLabel('任务名称').fill(`手术${run}`);
  await ok(page);
  await expect(page).toHaveURL(/surgery-coding-task/);
  const op = page.getByRole('row', { name: new RegExp(`手术${run}`) });
  await expect(op.getByRole('button', { name: '开始编码' })).toBeVisible({ timeout: 60_000 });
  await op.getByRole('button', { name: '开始编码' }).click();
  await page.getByPlaceholder('按名称筛选').fill('胆囊');
  await page.getByPlaceholder('按名称筛选').press('Enter');
  await expect(page.getByTestId('coding-item-腹腔镜下胆囊切除术')).toContainText('名称完全一致');
  await page.getByTestId('coding-bulk').click();
  await expect(page.getByTestId('coding-item-腹腔镜下胆囊切除术')).toContainText('撤回');
  await screenshot(page, 'coding-surgery-review');

  // A second person reviews the diagnosis task in coding QC.
  const reviewer = await ownAccount('admin', 'rvw');
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    extraHTTPHeaders: { 'x-forwarded-for': clientAddress() },
  });
  const second = await context.newPage();
  second.setDefaultTimeout(30_000);
  await second.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(second, reviewer);
  await second.goto('/coding-qc/coding-task');
  await second.getByTestId('coding-qc-add').click();
  await dialog(second).getByLabel('编码任务').click();
  await second.locator('.ant-select-item-option', { hasText: `诊断${run}` }).click();
  await ok(second);
  await expect(second.getByRole('row').nth(1)).toContainText(`诊断${run}`);
  await screenshot(second, 'coding-qc-batches');
  await second.getByRole('row').nth(1).getByRole('button', { name: '去审核' }).click();
  await expect(second).toHaveURL(/coding-audit\?batchId=/);
  // Agree with 慢乙肝 (A), disagree with 冠心病 (D, with a reason).
  await second.getByTestId('coding-review-慢乙肝').getByRole('cell').first().click();
  await second.keyboard.press('a');
  await expect(second.getByTestId('coding-review-慢乙肝')).toContainText('同意');
  await second.getByTestId('coding-review-冠心病').getByRole('cell').first().click();
  await second.keyboard.press('d');
  await dialog(second).getByLabel('理由').fill('病历为不稳定型心绞痛，应编 I20');
  await dialog(second).getByLabel('建议编码').fill('I20');
  await ok(second);
  await expect(second.getByTestId('coding-review-冠心病')).toContainText('病历为不稳定型心绞痛');
  await screenshot(second, 'coding-qc-audit');
  await second.goto('/coding-qc/coding-task');
  await expect(second.getByText('一致率（按编码人与任务）')).toBeVisible();
  await expect(
    second.getByRole('row', { name: new RegExp(`${ownAdmin.username}.*诊断${run}`) }),
  ).toContainText('%');
  await screenshot(second, 'coding-qc-agreement');
  await context.close();

  // Back to the coder: the disputed mapping shows the reviewer's reason.
  await page.goto('/data-clean/disease-coding-task');
  await page
    .getByRole('row', { name: new RegExp(`诊断${run}`) })
    .getByRole('button', { name: '开始编码' })
    .click();
  await filter('冠心病');
  await expect(page.getByTestId('coding-item-冠心病')).toContainText('审核退回：病历为不稳定型心绞痛');
  await screenshot(page, 'coding-disputed');
  await page.goto('/coding-qc/maintenance-marker');
  await expect(page.getByText('维护标记').first()).toBeVisible();
  await screenshot(page, 'coding-markers');

  // Lab and drug tasks are listed (and coded) on their task screens.
  await page.goto('/data-clean/inspection-coding-task');
  await expect(page.getByTestId('coding-new-task')).toBeVisible();
  await screenshot(page, 'coding-lab-tasks');
  await page.goto('/data-clean/disease-coding');
  await page.getByTestId('coding-task-pick').click();
  await page.locator('.ant-select-item-option', { hasText: `诊断${run}` }).click();

  // The same screen in English.
  await switchLanguage(page, 'English');
  await expect(page.getByRole('tab', { name: 'Term by term' })).toBeVisible();
  await page.getByPlaceholder('Filter by name').fill('冠心病');
  await page.getByPlaceholder('Filter by name').press('Enter');
  await expect(page.getByTestId('coding-item-冠心病')).toContainText('Sent back by review');
  await screenshot(page, 'coding-review-en');
});
