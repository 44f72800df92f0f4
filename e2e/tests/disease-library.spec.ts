import type { Page } from '@playwright/test';
import {
  account,
  apiLogin,
  chooseOption,
  expect,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * The disease-library story of issue 8: a researcher builds a hepatitis B library from the
 * clinical data with the condition builder, pushes and fills it, walks its patients with the
 * next button to the last one, and reads the dashboard, the statistics and an export.
 */
// Names and the diagnosis code are the attempt's own (set when the test starts): a retried or
// repeated attempt must not count the patients an earlier attempt left in the shared server.
let RUN = '';
let LIBRARY = '';
let FORM = '';
/** Chronic hepatitis B in the national clinical extension style (B18.1 + a suffix of this attempt). */
let HBV_CODE = '';
const HEPATITIS_B = 12;

const HBV_FORM = {
  pages: [
    {
      key: 'base',
      title: '乙肝专病',
      items: [
        { key: 'alt', type: 'textQuestion', title: '基线 ALT (U/L)', textType: 'number' },
        { key: 'k74Date', type: 'textQuestion', title: '首次肝硬化诊断日期', textType: 'text' },
        { key: 'admissions', type: 'textQuestion', title: '住院次数', textType: 'number' },
        { key: 'note', type: 'textQuestion', title: '备注', textType: 'text' },
      ],
    },
  ],
};

async function record(key: string, id: number, table: string, row: Record<string, unknown>) {
  const r = await restCall('POST', `cdr/patients/${id}/records`, key, { table, row });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Twelve patients with chronic hepatitis B, one of them with liver cancer, and one with hypertension. */
async function seed(key: string) {
  for (let i = 0; i < HEPATITIS_B + 1; i++) {
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `HB${RUN}-${i}`,
      name: `乙肝患者${String(i + 1).padStart(2, '0')}`,
      gender: i % 3 ? 1 : 2,
      birthDate: `${1950 + i * 3}-05-01`,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const id = p.body.data.id;
    const month = String(1 + (i % 6)).padStart(2, '0');
    const at = `2024-${month}-10T08:00:00+08:00`;
    await record(key, id, 'visits', { kind: i % 2 ? 'inpatient' : 'outpatient', admitAt: at });
    if (i === HEPATITIS_B) {
      await record(key, id, 'diagnoses', { icd10: 'I10', name: '高血压', diagnosedAt: at });
      continue;
    }
    // A code no other story or attempt uses, so this library sees exactly its own patients.
    await record(key, id, 'diagnoses', { icd10: HBV_CODE, name: '慢性乙型病毒性肝炎', diagnosedAt: at });
    if (i % 4 !== 3)
      await record(key, id, 'labResults', {
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        valueNum: 30 + i * 7,
        unit: 'U/L',
        collectedAt: at,
      });
    if (i % 5 === 0) await record(key, id, 'diagnoses', { icd10: 'K74.6', name: '肝硬化', diagnosedAt: at });
    if (i === 1) await record(key, id, 'diagnoses', { icd10: 'C22.0', name: '肝细胞癌', diagnosedAt: at });
  }
}

async function publishedForm(key: string) {
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, { name: FORM, definition: HBV_FORM });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const pub = await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
}

async function addCondition(page: Page, part: 'inclusion' | 'exclusion', kind: string, codes: string) {
  await page.getByTestId(`add-${part}`).click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item').filter({ hasText: kind }).click();
  const row = page.getByTestId(`conditions-${part}`).locator('[data-testid^="condition-"]').last();
  await row.getByRole('combobox', { name: /ICD-10/ }).fill(`${codes},`);
  await expect(row.locator('.ant-select-selection-item').filter({ hasText: codes })).toBeVisible();
}

test('a researcher builds a hepatitis B library, fills it and walks its patients to the last one', async ({
  page,
}) => {
  test.setTimeout(420_000);
  RUN = runId();
  LIBRARY = `E2E乙肝专病库${RUN}`;
  FORM = `E2E乙肝专病表${RUN}`;
  HBV_CODE = `B18.1X${RUN}`;
  const admin = account('admin');
  const key = await apiLogin(admin);
  await seed(key);
  await publishedForm(key);
  await signInToWorkbench(page, admin);

  // First the researcher creates the library: a CRF, B18 in, C22 out, and where values come from.
  await page.goto('/zhuanbing-library/library-list');
  await page.getByRole('button', { name: '创建专病库' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('专病库名称').fill(LIBRARY);
  await chooseOption(page, page.getByLabel('CRF 表单', { exact: true }), FORM);
  await addCondition(page, 'inclusion', '诊断编码', HBV_CODE);
  await addCondition(page, 'exclusion', '诊断编码', 'C22');
  await expect(dialog.getByTestId('criteria-count')).toHaveText(/符合条件的患者：\d+ 人/);
  // Where values come from: each rule for an item picked by its title (here written as text).
  for (const [title, item, text] of [
    ['基线 ALT (U/L)', 'alt', 'latest lab.value where code = "ALT"'],
    ['首次肝硬化诊断日期', 'k74Date', 'first diagnosis.date where code starts "K74"'],
    ['住院次数', 'admissions', 'count visit where kind = "inpatient"'],
  ] as const) {
    await chooseOption(page, dialog.getByRole('combobox', { name: '为条目添加规则' }), title);
    const rule = dialog.getByTestId(`rule-row-${item}`);
    await rule.getByRole('button', { name: '高级：编辑文本' }).click();
    await rule.getByRole('textbox', { name: '规则文本' }).fill(text);
  }
  await screenshot(page, 'disease-library-1-create');
  await dialog.getByRole('button', { name: /确\s*[定认]/ }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: LIBRARY });
  await expect(row).toBeVisible();

  // It pushes the matching patients and fills their indicators, following each job.
  await row.getByRole('button', { name: '推送患者' }).click();
  await expect(page.getByText(`推送完成：新增 ${HEPATITIS_B - 1} 人`)).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: '填充数据' }).click();
  await expect(page.getByText(/填充完成：写入 \d+ 项/)).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole('cell', { name: String(HEPATITIS_B - 1), exact: true })).toBeVisible();
  await screenshot(page, 'disease-library-2-list');

  // The patient list opens a patient's record with the breadcrumb; next walks to the last one.
  await row.getByRole('button', { name: '患者列表' }).click();
  await expect(page).toHaveURL(/patients-list\?libraryId=\d+/);
  const libraryId = Number(new URL(page.url()).searchParams.get('libraryId'));
  await expect(page.getByRole('row').filter({ hasText: '乙肝患者01' })).toBeVisible();
  await screenshot(page, 'disease-library-3-patients');
  await page.getByRole('row').filter({ hasText: '乙肝患者01' }).getByRole('button', { name: '查看' }).click();
  await expect(page.locator('.ant-breadcrumb')).toContainText('乙肝患者01');
  await expect(page.locator('.ant-breadcrumb')).toContainText(/\d{4}-\d{2}-\d{2}/);
  await expect(page.getByText('基线 ALT (U/L)')).toBeVisible();
  await screenshot(page, 'disease-library-4-record');
  const seen = new Set<string>();
  const crumb = page.locator('.ant-breadcrumb-link').last();
  const last = page.getByText('已经是最后一位了');
  for (let i = 0; i < HEPATITIS_B; i++) {
    const current = ((await crumb.textContent()) ?? '').split(' · ')[0]!.trim();
    seen.add(current);
    await page.getByTestId('next-patient').click();
    // Either the next patient opens or the message says this was the last one.
    await expect(async () => {
      const moved = !((await crumb.textContent()) ?? '').includes(current);
      expect(moved || (await last.isVisible())).toBe(true);
    }).toPass({ timeout: 10_000 });
    if (await last.isVisible()) break;
  }
  await expect(last).toBeVisible();
  // Every patient of the library was shown once: the next page was loaded on the way.
  expect(seen.size).toBe(HEPATITIS_B - 1);
  await screenshot(page, 'disease-library-5-last');

  // The dashboard shows enrolment, age, gender and completeness.
  await page.goto(`/zhuanbing-library/zhuanbing-dashboard?libraryId=${libraryId}`);
  await expect(page.getByTestId('dashboard-cards')).toContainText(String(HEPATITIS_B - 1));
  await expect(page.getByTestId('chart-enrolment').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('chart-gender').locator('canvas')).toBeVisible();
  await screenshot(page, 'disease-library-6-dashboard');

  // Statistics describe the baseline ALT.
  await page.goto(`/zhuanbing-library/statistics-analysis?libraryId=${libraryId}`);
  await page.getByRole('button', { name: /分\s*析/ }).click();
  await expect(page.getByText(/均值 [\d.]+，标准差/).first()).toBeVisible();
  await screenshot(page, 'disease-library-7-statistics');

  // Missing indicators: the note was never filled.
  await page.goto(`/zhuanbing-library/indicator-missing-process?libraryId=${libraryId}`);
  await expect(page.getByRole('row').filter({ hasText: '备注' })).toContainText(
    `${HEPATITIS_B - 1} / ${HEPATITIS_B - 1}`,
  );
  await screenshot(page, 'disease-library-8-missing');
  // The note of one patient is marked as not obtainable, with a reason.
  await page.getByRole('row').filter({ hasText: '备注' }).click();
  await page.getByRole('button', { name: '标记无法获取' }).first().click();
  await page.getByRole('dialog').getByLabel('原因').fill('患者未提供');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*[定认]/ })
    .click();
  await expect(page.getByText('无法获取：患者未提供')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '备注' }).getByRole('cell').last()).toHaveText('1');
  await screenshot(page, 'disease-library-8b-unobtainable');

  // Export as Excel with its dictionary sheet, in the background.
  await page.goto(`/zhuanbing-library/export?libraryId=${libraryId}`);
  await page.getByTestId('export-start').click();
  await expect(page.getByText(`导出完成：${HEPATITIS_B - 1} 行`)).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载' }).first().click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  await screenshot(page, 'disease-library-9-export');

  // The search finds the patients with a high ALT.
  await page.goto(`/zhuanbing-library/zb-data-search?libraryId=${libraryId}`);
  await chooseOption(page, page.getByRole('combobox', { name: '指标', exact: true }), '基线 ALT (U/L)');
  await page.getByPlaceholder('值').fill('80');
  // The chosen operator's text lies over the input: click through it.
  await page.getByRole('combobox', { name: '比较方式', exact: true }).click({ force: true });
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: '大于等于' })
    .click();
  await page.getByRole('button', { name: /检\s*索/ }).click();
  await expect(page.getByText('检索结果')).toBeVisible();
  // ALT 30 + 7i for i = 0..10 without i = 1 (excluded) and without every fourth (no ALT): 86, 93, 100.
  await expect(page.getByText(/总共 3 条/)).toBeVisible();
  await screenshot(page, 'disease-library-10-search');

  // The CRF rules of the library: trying a rule runs it over the library's patients.
  await page.goto(`/zhuanbing-library/library-list-Crf?libraryId=${libraryId}`);
  await page
    .getByTestId('rule-row-alt')
    .getByRole('button', { name: /试\s*算/ })
    .click();
  await expect(page.getByText(/8 \/ 11 位患者有值/)).toBeVisible();
  await screenshot(page, 'disease-library-11-crf-rules');

  // Search settings, common templates, storage and the cleaning page each show their data.
  await page.goto(`/zhuanbing-library/RetrievalConfig/Index?libraryId=${libraryId}`);
  await page.getByRole('checkbox', { name: /基线 ALT/ }).check();
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('检索字段已保存')).toBeVisible();
  await screenshot(page, 'disease-library-12-retrieval');
  await page.goto('/zhuanbing-library/data-storage');
  await expect(page.getByRole('row').filter({ hasText: LIBRARY })).toContainText('11');
  await screenshot(page, 'disease-library-13-storage');
  await page.goto(`/zhuanbing-library/clean-annotation?libraryId=${libraryId}`);
  await page.getByText('无数据', { exact: true }).click();
  await expect(page.getByText(/总共 \d+ 条/)).toBeVisible();
  await screenshot(page, 'disease-library-14-clean');
  await page.goto('/zhuanbing-library/commonly-template');
  await page.getByRole('button', { name: '新建模板' }).click();
  await page.getByRole('dialog').getByLabel('模板名称').fill(`乙肝模板${RUN}`);
  await chooseOption(page, page.getByRole('dialog').getByLabel('CRF 表单', { exact: true }), FORM);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*[定认]/ })
    .click();
  await expect(page.getByRole('row').filter({ hasText: `乙肝模板${RUN}` })).toBeVisible();
  await screenshot(page, 'disease-library-15-templates');
});
