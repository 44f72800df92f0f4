import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * The data-QC story: a data manager checks the clinical data before a study. Three patients
 * came in through the API, one with an ALT of 850 U/L and one discharged before admission. In
 * the browser she writes a range rule and a date-order rule, gathers them in a plan, runs it,
 * waits for the task to finish, and finds exactly those two patients in the report and the CSV.
 */
async function seed(key: string, run: string, altCode: string) {
  const people = [
    { suffix: 'A', alt: 45, admit: '2024-03-01T08:00:00+08:00', discharge: '2024-03-06T10:00:00+08:00' },
    { suffix: 'B', alt: 850, admit: '2024-04-01T08:00:00+08:00', discharge: '2024-04-05T10:00:00+08:00' },
    { suffix: 'C', alt: 60, admit: '2024-05-10T08:00:00+08:00', discharge: '2024-05-02T10:00:00+08:00' },
  ];
  for (const [i, p] of people.entries()) {
    const created = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `QC${run}-${i}`,
      name: `质控${p.suffix}${run}`,
      gender: 1 + (i % 2),
      birthDate: '1970-01-01',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const rows = [
      { table: 'visits', row: { kind: 'inpatient', admitAt: p.admit, dischargeAt: p.discharge } },
      {
        table: 'labResults',
        row: {
          itemCode: altCode,
          itemName: '丙氨酸氨基转移酶',
          valueNum: p.alt,
          unit: 'U/L',
          collectedAt: p.admit,
        },
      },
    ];
    for (const r of rows) {
      const res = await restCall('POST', `cdr/patients/${id}/records`, key, r);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }
}

/** Picks an option of one select: its own dropdown (a closing one may still show the same text). */
async function pickOption(page: Page, select: Locator, option: string, type = false) {
  const id = await select.getAttribute('id');
  await select.click();
  if (type) await select.fill(option);
  await page
    .locator(`.ant-select-dropdown:visible:has([id="${id}_list"]) .ant-select-item-option`)
    .filter({ hasText: option })
    .first()
    .click();
}

test('a data manager finds a bad lab value and a discharge before admission with a QC plan', async ({
  page,
}) => {
  test.setTimeout(270_000);
  // The attempt's own names and item code: a retry must not meet an earlier attempt's rows.
  const RUN = runId();
  const ALT = `ALT${RUN}`;
  const RANGE_RULE = `ALT范围${RUN}`;
  const ORDER_RULE = `入出院顺序${RUN}`;
  const PLAN = `入组前质控${RUN}`;
  const admin = account('admin');
  await seed(await apiLogin(admin), RUN, ALT);
  await signInToWorkbench(page, admin);

  // First the range rule: lab results, numeric value between 0 and 200, only for this ALT code.
  await page.goto('/data-qc/rule');
  await expect(page.getByText('质控规则').first()).toBeVisible();
  await page.getByRole('button', { name: '新建规则' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByLabel('名称', { exact: true }).fill(RANGE_RULE);
  await pickOption(page, drawer.getByLabel('数据表', { exact: true }), '检验结果');
  await drawer.getByText('数值范围', { exact: true }).click();
  await pickOption(page, drawer.getByLabel('检查字段', { exact: true }), '数值结果');
  await drawer.getByLabel('下限', { exact: true }).fill('0');
  await drawer.getByLabel('上限', { exact: true }).fill('200');
  await pickOption(page, drawer.getByLabel('仅检查', { exact: true }), '检验项目代码');
  await drawer.getByLabel('等于', { exact: true }).fill(ALT);
  await screenshot(page, 'data-qc-1-rule-drawer');
  await drawer.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: RANGE_RULE })).toContainText('0 至 200');

  // Then the date-order rule: a visit's admission must not be later than its discharge.
  await page.getByRole('button', { name: '新建规则' }).click();
  await drawer.getByLabel('名称', { exact: true }).fill(ORDER_RULE);
  await pickOption(page, drawer.getByLabel('数据表', { exact: true }), '就诊');
  await drawer.getByText('日期先后', { exact: true }).click();
  await pickOption(page, drawer.getByLabel('检查字段', { exact: true }), '入院/就诊时间');
  await pickOption(page, drawer.getByLabel('不早于它的字段', { exact: true }), '出院时间');
  await drawer.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(drawer).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: ORDER_RULE })).toContainText('≤ 出院时间');
  await screenshot(page, 'data-qc-2-rules');

  // A plan of both rules.
  await page.goto('/data-qc/plan');
  await page.getByRole('button', { name: '新建方案' }).click();
  const planDrawer = page.getByRole('dialog');
  await planDrawer.getByLabel('名称', { exact: true }).fill(PLAN);
  const picker = planDrawer.getByLabel('包含规则', { exact: true });
  await pickOption(page, picker, RANGE_RULE, true);
  await pickOption(page, picker, ORDER_RULE, true);
  await screenshot(page, 'data-qc-3-plan-drawer');
  await planDrawer.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(planDrawer).toHaveCount(0);
  const planRow = page.getByRole('row').filter({ hasText: PLAN });
  await expect(planRow).toContainText(RANGE_RULE);
  await expect(planRow).toContainText(ORDER_RULE);
  await screenshot(page, 'data-qc-4-plans');

  // The task runs in the background; the list follows it until it has finished.
  await page.goto('/data-qc/task');
  await page.getByRole('button', { name: '运行方案' }).click();
  const modal = page.getByRole('dialog');
  await pickOption(page, modal.getByLabel('质控方案', { exact: true }), PLAN, true);
  await modal.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(modal).toHaveCount(0);
  const taskRow = page.getByRole('row').filter({ hasText: PLAN }).first();
  await expect(taskRow).toContainText('成功', { timeout: 60_000 });
  await screenshot(page, 'data-qc-5-tasks');

  // The report: summary cards, both rules with one fault each among this attempt's patients.
  await taskRow.getByRole('button', { name: '查看报告' }).click();
  await expect(page).toHaveURL(/\/data-qc\/report\?taskId=\d+/);
  await expect(page.getByTestId('qc-pass-rate')).toContainText('%');
  const ruleRow = (name: string) => page.getByTestId('qc-rules').getByRole('row').filter({ hasText: name });
  await expect(ruleRow(RANGE_RULE)).toContainText('检验结果');
  await expect(ruleRow(RANGE_RULE).getByRole('cell').nth(4)).toHaveText('3');
  await expect(ruleRow(RANGE_RULE).getByRole('cell').nth(5)).toHaveText('1');
  await page.getByPlaceholder('按患者姓名或病案号查找').fill(RUN);
  await page.getByPlaceholder('按患者姓名或病案号查找').press('Enter');
  const faultRows = page.getByRole('row').filter({ hasText: `QC${RUN}-` });
  await expect(faultRows).toHaveCount(2);
  await expect(faultRows.filter({ hasText: `质控B${RUN}` })).toContainText('850 超出范围 [0, 200]');
  await expect(faultRows.filter({ hasText: `质控C${RUN}` })).toContainText('晚于 出院时间');
  await expect(page.getByText(`质控A${RUN}`)).toHaveCount(0);
  await screenshot(page, 'data-qc-6-report');

  // The CSV holds the same two faults.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^data-qc-report-\d+\.csv$/);
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv).toContain('规则,严重程度,数据表,记录ID,患者ID,病案号,姓名,值,比较值,说明');
  expect(csv).toContain(`${RANGE_RULE},错误,检验结果`);
  expect(csv).toContain(`QC${RUN}-1,质控B${RUN},850`);
  expect(csv).toContain(`QC${RUN}-2,质控C${RUN}`);
  expect(csv).not.toContain(`质控A${RUN}`);

  // The same report in English.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByText('Overall pass rate')).toBeVisible();
  await expect(faultRows.filter({ hasText: `质控B${RUN}` })).toContainText('850 is outside [0, 200]');
  await screenshot(page, 'data-qc-7-report-en');
});
