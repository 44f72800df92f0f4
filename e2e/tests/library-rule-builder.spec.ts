import type { Locator, Page } from '@playwright/test';
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
  waitForJob,
} from '../fixtures';

/**
 * Issue 16: a disease library's indicator source rules are picked from lists, not typed. A
 * researcher creates a library whose baseline ALT is "the latest lab value with code ALT on or
 * before the first visit", picked item by title, lab item by search; the expression is shown
 * beneath. Opened again (the library's CRF page) the same choices and expression come back, and
 * the fill writes the value the rule names (the ALT before the first visit, not the later one).
 */
test.describe.configure({ timeout: 300_000 });
test.use({ viewport: { width: 1440, height: 900 } });
const LOAD = { timeout: 60_000 };

const FORM_DEF = {
  pages: [
    {
      key: 'base',
      title: '基线',
      items: [
        { key: 'alt', type: 'textQuestion', title: '基线 ALT (U/L)', textType: 'number' },
        { key: 'note', type: 'textQuestion', title: '备注', textType: 'text' },
      ],
    },
  ],
};
const EXPRESSION = 'latest lab.value where code = "ALT" before first_visit';

async function record(key: string, id: number, table: string, row: Record<string, unknown>) {
  const r = await restCall('POST', `cdr/patients/${id}/records`, key, { table, row });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Three patients with this attempt's diagnosis code; each has ALT 40 before the first visit and 90 after. */
async function seed(key: string, run: string, code: string) {
  for (let i = 0; i < 3; i++) {
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `RB${run}-${i}`,
      name: `规则患者${run}-${i + 1}`,
      gender: 1 + (i % 2),
      birthDate: `${1960 + i}-03-01`,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const id = p.body.data.id;
    await record(key, id, 'visits', { kind: 'outpatient', admitAt: '2024-03-10T08:00:00+08:00' });
    await record(key, id, 'diagnoses', {
      icd10: code,
      name: '慢性乙型病毒性肝炎',
      diagnosedAt: '2024-03-10T08:00:00+08:00',
    });
    for (const [at, value] of [
      ['2024-03-01T08:00:00+08:00', 40 + i],
      ['2024-04-01T08:00:00+08:00', 90 + i],
    ] as const)
      await record(key, id, 'labResults', {
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        valueNum: value,
        unit: 'U/L',
        collectedAt: at,
      });
  }
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `E2E规则表${run}`,
    definition: FORM_DEF,
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const pub = await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  return form.body.data.id;
}

async function pickOption(page: Page, select: Locator, option: string | RegExp, search = false) {
  const wanted = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first();
  await select.click({ force: true });
  // A long list (every run adds a form) shows only its first options: type to find the one.
  if (search && typeof option === 'string') await page.keyboard.type(option);
  // The list may re-render while the picked form's items load, closing the dropdown the click
  // opened (or opening it before its options came): click again until the option shows.
  await expect(async () => {
    if (!(await wanted.isVisible())) await select.click({ force: true });
    await expect(wanted).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  await wanted.click();
}

/** The shown choice of a select, found by its label. */
const shownIn = (box: Locator, label: string) =>
  box
    .getByRole('combobox', { name: label, exact: true })
    .locator('xpath=ancestor::div[contains(@class,"ant-select-selector")][1]');

test('a source rule picked from lists is saved, shown again as the same choices, and fills the library', async ({
  page,
}) => {
  const run = runId();
  const code = `B18.1R${run}`;
  const name = `E2E规则库${run}`;
  const admin = account('admin');
  const key = await apiLogin(admin);
  await seed(key, run, code);
  await signInToWorkbench(page, admin);

  await page.goto('/zhuanbing-library/library-list');
  await page.getByRole('button', { name: '创建专病库' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('专病库名称').fill(name);
  // Before a form is picked, the rules say what to do first.
  await expect(dialog.getByText('先选择 CRF 表单，再为它的条目设置来源规则')).toBeVisible();
  await pickOption(page, page.getByLabel('CRF 表单', { exact: true }), `E2E规则表${run}`);
  await page.getByTestId('add-inclusion').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: '诊断编码' }).click();
  const cond = page.getByTestId('conditions-inclusion').locator('[data-testid^="condition-"]').last();
  await cond.getByRole('combobox', { name: /ICD-10/ }).fill(`${code},`);

  // The item is picked by its title; a new rule starts as the latest lab value of an item to pick.
  await pickOption(page, dialog.getByRole('combobox', { name: '为条目添加规则' }), '基线 ALT (U/L)');
  const row = dialog.getByTestId('rule-row-alt');
  await expect(row).toContainText('基线 ALT (U/L)');
  await expect(row.getByText('请填写或选择条件的值')).toBeVisible();
  // Saving an incomplete rule is refused under the field, in words.
  await dialog.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(dialog.getByText('请完成标红的来源规则')).toBeVisible();

  const lab = row.getByRole('combobox', { name: '搜索检验项目（名称或代码）' });
  await lab.click();
  await lab.fill('ALT');
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /· ALT ·/ })
    .first()
    .click();
  await pickOption(page, row.getByRole('combobox', { name: '时间范围' }), '之前（含当天）');
  await expect(shownIn(row, '参照时间')).toContainText('首次就诊');
  await expect(row.getByTestId('rule-expression')).toHaveText(EXPRESSION);
  await expect(row.getByText('请填写或选择条件的值')).toHaveCount(0);
  await screenshot(page, 'rule-builder-1-create-zh-1440');
  await dialog.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(dialog).toHaveCount(0, LOAD);

  const list = await restCall<{ items: { id: number; name: string }[] }>(
    'GET',
    `diseaselibrary/libraries?page=1&size=50&keyword=${encodeURIComponent(name)}`,
    key,
  );
  const lib = list.body.data.items.find((x) => x.name === name);
  expect(lib, JSON.stringify(list.body)).toBeTruthy();
  const detail = await restCall<{ sourceRules: Record<string, string> }>(
    'GET',
    `diseaselibrary/libraries/${lib!.id}`,
    key,
  );
  // The saved format is unchanged: item key -> template text.
  expect(detail.body.data.sourceRules).toEqual({ alt: EXPRESSION });

  // The fill uses the rule: each patient's baseline ALT is the value before the first visit.
  const push = await restCall<{ jobId: number }>('POST', `diseaselibrary/libraries/${lib!.id}/push`, key, {});
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  await waitForJob(key, push.body.data.jobId);
  const fill = await restCall<{ jobId: number }>('POST', `diseaselibrary/libraries/${lib!.id}/fill`, key, {});
  expect(fill.status, JSON.stringify(fill.body)).toBe(200);
  await waitForJob(key, fill.body.data.jobId);
  const data = await restCall<{ items: { values: Record<string, unknown> }[] }>(
    'POST',
    `diseaselibrary/libraries/${lib!.id}/data`,
    key,
    { page: 1, size: 20 },
  );
  expect(data.status, JSON.stringify(data.body)).toBe(200);
  expect(data.body.data.items.map((r) => Number(r.values.alt)).sort()).toEqual([40, 41, 42]);

  // Opened again, the rule shows the same choices and the same expression.
  await page.goto(`/zhuanbing-library/library-list-Crf?libraryId=${lib!.id}`);
  const again = page.getByTestId('rule-row-alt');
  await expect(again).toContainText('基线 ALT (U/L)', LOAD);
  const shown = (label: string) => shownIn(again, label);
  await expect(shown('数据来源')).toContainText('检验结果');
  await expect(shown('取值方式')).toContainText('最近一次');
  await expect(shown('字段')).toContainText('结果数值');
  await expect(shown('条件字段')).toContainText('项目代码');
  await expect(shown('比较方式')).toContainText('等于');
  await expect(shown('搜索检验项目（名称或代码）')).toContainText('ALT');
  await expect(shown('时间范围')).toContainText('之前（含当天）');
  await expect(shown('参照时间')).toContainText('首次就诊');
  await expect(again.getByTestId('rule-expression')).toHaveText(EXPRESSION);
  // Try runs the rule over the library's patients.
  await again.getByRole('button', { name: /试\s*算/ }).click();
  await expect(page.getByTestId('rule-trial-alt')).toContainText('3 / 3');
  await screenshot(page, 'rule-builder-2-reopen-zh-1440');

  // Advanced: the text, edited by hand; a rule the lists cannot show stays text.
  await again.getByRole('button', { name: '高级：编辑文本' }).click();
  const text = again.getByRole('textbox', { name: '规则文本' });
  await expect(text).toHaveValue(EXPRESSION);
  await text.fill('latest lab.value where code = "ALT" before "2024-03-05"');
  await expect(again.getByText('这条规则以固定日期为参照，列表无法表示，只能编辑文本')).toBeVisible();
  await expect(again.getByRole('button', { name: '用列表编辑' })).toBeDisabled();
  await text.fill('latest lab.valu where code = "ALT"');
  await expect(again.getByText(/这条规则无法解析：lab 没有字段 'valu'/)).toBeVisible();
  await expect(page.getByRole('button', { name: /保存规则/ })).toBeDisabled();
  await text.fill(`${EXPRESSION} within 30 days`);
  await again.getByRole('button', { name: '用列表编辑' }).click();
  await expect(again.getByRole('spinbutton', { name: '天数范围' })).toHaveValue('30');
  await expect(again.getByTestId('rule-expression')).toHaveText(`${EXPRESSION} within 30 days`);

  // The same in English, and on a phone.
  await switchLanguage(page, 'English');
  await expect(shown('Source')).toContainText('Lab result');
  await expect(page.getByTestId('rule-trial-alt')).toContainText('3 of 3 patients');
  await expect(shown('Take')).toContainText('Latest');
  await expect(shown('Time window')).toContainText('On or before');
  await expect(shown('Relative to')).toContainText('First visit');
  await screenshot(page, 'rule-builder-3-reopen-en-1440');
  await page.setViewportSize({ width: 375, height: 812 });
  await again.scrollIntoViewIfNeeded();
  await expect(again.getByTestId('rule-expression')).toBeVisible();
  await screenshot(page, 'rule-builder-4-reopen-en-375');
  await page.setViewportSize({ width: 1440, height: 900 });
  await switchLanguage(page, '简体中文');
  await page.setViewportSize({ width: 375, height: 812 });
  await again.scrollIntoViewIfNeeded();
  await expect(shown('数据来源')).toContainText('检验结果');
  await screenshot(page, 'rule-builder-5-reopen-zh-375');

  // A common template builds its rules the same way, for the items of the form it names.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/zhuanbing-library/commonly-template');
  await page.getByRole('button', { name: '新建模板' }).click();
  const tpl = page.getByRole('dialog');
  await tpl.getByLabel('模板名称').fill(`E2E规则模板${run}`);
  await pickOption(page, tpl.getByLabel('CRF 表单', { exact: true }), `E2E规则表${run}`, true);
  await pickOption(page, tpl.getByRole('combobox', { name: '为条目添加规则' }), '基线 ALT (U/L)');
  const tplRow = tpl.getByTestId('rule-row-alt');
  await pickOption(page, tplRow.getByRole('combobox', { name: '数据来源' }), '患者信息');
  await expect(tplRow.getByTestId('rule-expression')).toHaveText('value patient.age');
  await screenshot(page, 'rule-builder-6-template-zh-1440');
  await tpl.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(tpl).toHaveCount(0, LOAD);
  await expect(page.getByRole('row').filter({ hasText: `E2E规则模板${run}` })).toContainText('1');
});

/**
 * Issue 17: a T0 event as the zero point of a library's indicator. The library's ALT is "the
 * first ALT within 60 days after the patient's T0" (T0: the first diagnosis of this attempt's
 * code, 2024-03-10); the builder shows the window and the event by name, and the try-out finds
 * each patient's ALT of 2024-04-01 (90, 91, 92), not the one before T0.
 */
test('a window counted from a T0 event is shown in the builder and computes values after each T0', async ({
  page,
}) => {
  const run = runId();
  const code = `B18.1T${run}`;
  const admin = account('admin');
  const key = await apiLogin(admin);
  const formId = await seed(key, run, code);
  const event = await restCall<{ id: number }>('POST', 't0-events', key, {
    name: `首诊零点${run}`,
    rule: { kind: 'firstDiagnosis', icd10Prefix: code },
  });
  expect(event.status, JSON.stringify(event.body)).toBe(200);
  const calc = await restCall<{ jobId: number }>('POST', `t0-events/${event.body.data.id}/run`, key, {});
  expect(calc.status, JSON.stringify(calc.body)).toBe(200);
  await waitForJob(key, calc.body.data.jobId);
  const rule = `first lab.value where code = "ALT" after t0 ${event.body.data.id} within 60 days`;
  const made = await restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
    name: `E2E零点库${run}`,
    crfFormId: formId,
    criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [code] }], exclusion: [] },
    sourceRules: { alt: rule },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const push = await restCall<{ jobId: number }>(
    'POST',
    `diseaselibrary/libraries/${made.body.data.id}/push`,
    key,
    {},
  );
  await waitForJob(key, push.body.data.jobId);

  await signInToWorkbench(page, admin);
  await page.goto(`/zhuanbing-library/library-list-Crf?libraryId=${made.body.data.id}`);
  const row = page.getByTestId('rule-row-alt');
  await expect(row).toContainText('基线 ALT (U/L)', LOAD);
  await expect(shownIn(row, '时间范围')).toContainText('之后（含当天）');
  await expect(shownIn(row, '参照时间')).toContainText('时间零点（T0 事件）');
  await expect(shownIn(row, 'T0 事件')).toContainText(`首诊零点${run}`);
  await expect(row.getByTestId('rule-expression')).toHaveText(rule);
  await row.getByRole('button', { name: /试\s*算/ }).click();
  await expect(page.getByTestId('rule-trial-alt')).toContainText('3 / 3');
  await expect(page.getByTestId('rule-trial-alt')).toContainText('90');
  await screenshot(page, 'rule-builder-7-t0-zh-1440');
  await switchLanguage(page, 'English');
  await expect(shownIn(row, 'Relative to')).toContainText('Zero point (T0 event)');
  await screenshot(page, 'rule-builder-8-t0-en-1440');
});
