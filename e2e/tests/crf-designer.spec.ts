import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, test } from '../fixtures';
import { addItem, signInAsAdmin } from '../fixtures-crf';

interface Element {
  key?: string;
  type?: string;
  title?: string;
  items?: Element[];
}

/** The page's outline as keys, a group as { key: [its items] }, read from the saved draft. */
const outline = (list: Element[]): unknown[] =>
  list.map((e) => (e.type === 'group' ? { [e.key!]: outline(e.items ?? []) } : e.key));

test('the designer adds a titled group, fills it, drags items within, into and out of it, and deletes it', async ({
  page,
}) => {
  // Designer, drags and the table editor in one story: long on a loaded machine.
  test.slow();
  const adminKey = await apiLogin(account('admin'));
  const made = await restCall<{ id: number }>('POST', 'crf/forms', adminKey, {
    name: `分组设计 E2E ${runId()}`,
    definition: {
      pages: [
        {
          key: 'p1',
          title: '基线',
          items: [
            { key: 'q1', type: 'textQuestion', title: '姓名缩写', textType: 'text' },
            { key: 'q2', type: 'textQuestion', title: '年龄', textType: 'number' },
            { key: 'q3', type: 'textQuestion', title: '随访日期', textType: 'date' },
          ],
        },
      ],
    },
  });
  const formId = made.body.data.id;
  const draft = async () =>
    (
      await restCall<{ draft: { pages: Array<{ items: Element[] }> } }>(
        'GET',
        `crf/forms/${formId}`,
        adminKey,
      )
    ).body.data.draft;

  await signInAsAdmin(page);
  await page.goto(`/crf-management/hepatopathyPoc/edit?id=${formId}`);
  // The first paint after a full load may take long on a loaded machine.
  await expect(page.getByTestId('outline-q1')).toBeVisible({ timeout: 60_000 });

  // A group: titled in the properties panel, an item added inside with its own button.
  await page.getByTestId('add-group').click();
  await expect(page.getByTestId('outline-g1')).toBeVisible();
  await page.locator('#prop-group-title').fill('既往史');
  await expect(page.getByTestId('group-head-g1')).toContainText('既往史');
  await addItem(page, '单选题', 'add-item-g1');
  await page.locator('#prop-title').fill('高血压');
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q4')).toContainText('高血压');

  // Drag q2 into the group (onto its empty foot = the end of the group), then q1 before q4 inside it.
  await page.getByTestId('outline-q2').dragTo(page.getByTestId('group-end-g1'));
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q2')).toBeVisible();
  await page.getByTestId('outline-q1').dragTo(page.getByTestId('outline-q4'));
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q1')).toBeVisible();
  // Reorder within the group: q2 to the top.
  await page.getByTestId('outline-q2').dragTo(page.getByTestId('outline-q1'));
  // And q4 out of the group to the end of the page.
  await page.getByTestId('outline-q4').dragTo(page.getByTestId('page-end'));
  await expect(page.getByTestId('page-items').getByTestId('outline-q4')).toBeVisible();
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q4')).toHaveCount(0);

  // The live preview draws the group as a titled set with its items.
  const preview = page.locator('.ant-card').filter({ hasText: '实时预览' });
  await expect(preview.locator('fieldset.crf-group legend')).toHaveText('既往史');
  await expect(page.getByText('没有发现问题')).toBeVisible();
  await page.getByTestId('outline-g1').scrollIntoViewIfNeeded();
  await screenshot(page, 'crf-designer-group');

  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect(page.getByText('已保存').first()).toBeVisible();
  expect(outline((await draft()).pages[0]!.items)).toEqual(['q3', { g1: ['q2', 'q1'] }, 'q4']);
  const group = (await draft()).pages[0]!.items[1]!;
  expect(group).toMatchObject({ type: 'group', title: '既往史' });

  // The table editor lists the items inside the group too, with their group, and edits them in place.
  await page.getByRole('button', { name: '表格编辑' }).click();
  await expect(page).toHaveURL(/hepatopathyPoc\/editTable/);
  await expect(page.getByTestId('table-group-q2')).toHaveText('既往史');
  await expect(page.getByTestId('table-group-q1')).toHaveText('既往史');
  await expect(page.getByTestId('table-row-q3')).toBeVisible();
  await expect(page.getByTestId('table-group-q3')).toHaveCount(0);
  await expect(page.getByTestId('table-title-q1')).toHaveValue('姓名缩写');
  await page.getByTestId('table-title-q1').fill('姓名首字母');
  // Structural edits from the table: q3 moves into the group (at its end), then up one place by
  // keyboard, and the group is renamed in the groups panel above the table.
  await page.getByTestId('table-move-q3').click();
  await page.locator('.ant-select-dropdown:visible').getByText('基线 › 既往史', { exact: true }).click();
  await expect(page.getByTestId('table-group-q3')).toHaveText('既往史');
  await expect(page.getByTestId('table-up-q2')).toBeDisabled();
  await expect(page.getByTestId('table-down-q3')).toBeDisabled();
  await page.getByTestId('table-up-q3').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('table-down-q1')).toBeDisabled();
  await page.getByTestId('table-group-title-g1').fill('既往病史');
  await expect(page.getByTestId('table-group-q3')).toHaveText('既往病史');
  await expect(page.getByTestId('table-move-q3')).toContainText('基线 › 既往病史');
  await screenshot(page, 'crf-table-editor-group');
  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect
    .poll(async () => outline((await draft()).pages[0]!.items))
    .toEqual([{ g1: ['q2', 'q3', 'q1'] }, 'q4']);
  const saved = (await draft()).pages[0]!.items[0]!;
  expect(saved.title).toBe('既往病史');
  expect(saved.items!.map((e) => [e.key, e.title])).toEqual([
    ['q2', '年龄'],
    ['q3', '随访日期'],
    ['q1', '姓名首字母'],
  ]);
  // Back in the designer the group has its new title and items, and the new item title.
  await page.getByRole('button', { name: '可视化设计' }).click();
  await expect(page.getByTestId('group-head-g1')).toContainText('既往病史');
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q3')).toBeVisible();
  await expect(page.getByTestId('group-items-g1').getByTestId('outline-q1')).toContainText('姓名首字母');

  // Deleting the group asks first (cancel keeps it), then takes its items with it.
  await page.getByTestId('remove-group-g1').click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('删除分组“既往病史”及其中的 3 道题目？');
  await confirm.getByRole('button', { name: /取\s*消/ }).click();
  // The cancelled dialog fades out; until it is gone a second one would share its locator, and
  // a click could land on the closing dialog's button.
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('outline-g1')).toBeVisible();
  await page.getByTestId('remove-group-g1').click();
  await expect(confirm).toHaveCount(1);
  await confirm.getByRole('button', { name: /删\s*除/ }).click();
  await expect(page.getByTestId('outline-g1')).toHaveCount(0);
  await expect(page.getByTestId('outline-q1')).toHaveCount(0);
  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect.poll(async () => outline((await draft()).pages[0]!.items)).toEqual(['q4']);
});

const DAVE = fileURLToPath(
  new URL(
    '../../fixtures/odm/examples/MetaData_Dave_1_3_2_new_2006_01_26_extra_languages.xml',
    import.meta.url,
  ),
);

/** Signs in as the administrator and gives the CRF list's import dialog the Dave ODM file: the dialog. */
async function importDave(page: Page) {
  await signInAsAdmin(page);
  await page.goto('/crf-management/crfManagement');
  await page
    // Exact: a form row's 导入记录 button holds the word too.
    .getByRole('button', { name: '导 入', exact: true })
    .or(page.getByRole('button', { name: '导入', exact: true }))
    .click();
  const dialog = page.getByRole('dialog', { name: '导入表单' });
  await dialog.locator('input[type=file]').setInputFiles(DAVE);
  return dialog;
}

test('the CRF list imports one form of a CDISC ODM file and reports what it could not translate', async ({
  page,
}) => {
  const dialog = await importDave(page);
  // The file's forms are listed; the first is chosen and names the new form.
  await expect(dialog.locator('input#name')).toHaveValue('Baseline Visit Form');
  await expect(dialog.getByText('文件中有 7 张表单：导入其中一张，或选“全部表单”一次导入')).toBeVisible();
  await dialog.locator('.ant-select:has(#import-odm-form)').click();
  await page.locator('.ant-select-dropdown:visible').getByText('Laboratory (F_LAB)').click();
  const name = `ODM 实验室 ${runId()}`;
  await dialog.locator('input#name').fill(name);
  await screenshot(page, 'crf-import-odm');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const report = page.locator('.ant-modal-confirm').filter({ hasText: '以下内容未能转换' });
  await expect(report).toContainText('I_LB_RBC: soft range check LE 6.5 enforced as a hard bound');
  await report.getByRole('button', { name: /知道了|确\s*定|OK/ }).click();
  await expect(page.getByRole('cell', { name }).first()).toBeVisible();
});

test('the CRF list imports every form of an ODM file at once, and exports ODM with or without its audit trail', async ({
  page,
}) => {
  // Seven forms in one request, then a publish and a download: long on a loaded machine.
  test.slow();
  const dialog = await importDave(page);
  await expect(dialog.locator('input#name')).toHaveValue('Baseline Visit Form');
  await dialog.locator('.ant-select:has(#import-odm-form)').click();
  await page.locator('.ant-select-item-option', { hasText: '全部表单（7 张' }).click();
  await screenshot(page, 'crf-import-odm-all');
  const answer = page.waitForResponse((r) => r.url().includes('/crf/forms/import-study'));
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const imported = (await (await answer).json()) as {
    data: { forms: Array<{ formOid: string; form: { id: number } }> };
  };
  expect(imported.data.forms).toHaveLength(7);
  const report = page.locator('.ant-modal-confirm').filter({ hasText: '以下内容未能转换' });
  await expect(report).toContainText('Laboratory');
  await expect(report).toContainText('I_LB_RBC: soft range check LE 6.5 enforced as a hard bound');
  await screenshot(page, 'crf-import-odm-all-report');
  await report.getByRole('button', { name: /知道了|确\s*定|OK/ }).click();
  await expect(page.getByRole('cell', { name: 'Laboratory' }).first()).toBeVisible();

  // Export one of them as ODM (published first): the audit trail is a choice of the ODM format only.
  const lab = imported.data.forms.find((f) => f.formOid === 'F_LAB')!.form.id;
  const adminKey = await apiLogin(account('admin'));
  expect((await restCall('POST', `crf/forms/${lab}/publish`, adminKey, { note: '' })).status).toBe(200);
  await page.goto('/crf-management/crfManagement');
  const row = page.getByRole('row').filter({ hasText: 'Laboratory' }).first();
  await row.getByRole('button', { name: /导\s*出/ }).click();
  const exp = page.getByRole('dialog').filter({ hasText: '导出格式' });
  await expect(exp.getByText('稽查轨迹')).toHaveCount(0);
  await exp.locator('.ant-select').first().click();
  await page.locator('.ant-select-item-option', { hasText: 'CDISC ODM 1.3.2 XML' }).click();
  await expect(exp.getByText('稽查轨迹')).toBeVisible();
  await exp.getByText('不包含（文件更小）').click();
  await screenshot(page, 'crf-export-odm-audit');
  const download = page.waitForEvent('download');
  await exp.getByRole('button', { name: /下\s*载/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xml$/);
  const xml = readFileSync((await file.path())!, 'utf8');
  expect(xml).toContain('FileType="Snapshot"');
  expect(xml).not.toContain('<AuditRecord');
});
