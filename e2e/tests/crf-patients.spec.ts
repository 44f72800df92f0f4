import type { Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';
import { pickPatient } from '../fixtures-crf';

/**
 * Issue 16, CRF: a record is for a patient of the app (picked by name or MRN, never a typed code
 * that nobody can find again), the designer speaks the reader's language, unsaved edits are not
 * lost without a word, and spec 001's national ID check and blank decimals hold in the browser.
 */

const FOLLOW_UP = {
  pages: [
    {
      key: 'p',
      title: '随访',
      items: [
        {
          key: 'q1',
          type: 'radio',
          title: '有无吸烟',
          options: [
            { name: '是', code: '1' },
            { name: '否', code: '0' },
          ],
        },
        { key: 'q2', type: 'textQuestion', title: 'ALT', textType: 'number' },
      ],
    },
  ],
};

async function publishedForm(key: string, name: string, definition: object = FOLLOW_UP) {
  const made = await restCall<{ id: number }>('POST', 'crf/forms', key, { name, definition });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const v = await restCall('POST', `crf/forms/${made.body.data.id}/publish`, key, { note: '首版' });
  expect(v.status, JSON.stringify(v.body)).toBe(200);
  return made.body.data.id;
}

async function patient(key: string, mrn: string, name: string) {
  const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, { mrn, name, gender: 2 });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  return p.body.data.id;
}

async function inEnglish(page: Page) {
  await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
  await page.reload();
}

test('a record is for a patient picked by name or MRN; an unknown code is refused at the field; the list names the patient', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  const run = runId();
  const key = await apiLogin(account('admin'));
  const name = `关联患者${run}`;
  const mrn = `PT${run}`;
  await patient(key, mrn, name);
  const formId = await publishedForm(key, `随访关联 ${run}`);

  // The server refuses a code that names nobody, in words, at the field (it stored it before).
  const unknown = await restCall('POST', `crf/forms/${formId}/records`, key, {
    subjectCode: '不存在的病人-XYZ',
    answers: { q1: '1' },
  });
  expect(unknown.status).toBe(400);
  expect((unknown.body as { field?: string }).field).toBe('body.subjectCode');
  expect(unknown.body.message).toContain('没有病案号为“不存在的病人-XYZ”的患者');

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}&record=new`);
  // Submitting without a patient says so under the field, in words.
  await page.getByRole('button', { name: '提 交' }).click({ timeout: 60_000 });
  await expect(page.getByText('请选择记录所属的患者')).toBeVisible();
  await pickPatient(page, mrn);
  await page.locator('[data-item="q1"]').getByText('是').click();
  await page.locator('#crf-q2').fill('40');
  await screenshot(page, 'crf-record-editor-1440-zh');
  await page.getByRole('button', { name: '提 交' }).click();
  await expect(page).toHaveURL(/recordId=\d+/);
  await expect(page.getByTestId('crf-subject-name')).toHaveText(name);

  // The list names the patient with the MRN.
  await page.getByRole('button', { name: '返回列表' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText(mrn);
  await screenshot(page, 'crf-records-1440-zh');

  await inEnglish(page);
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText(mrn, { timeout: 60_000 });
  await screenshot(page, 'crf-records-1440-en');
  await page.getByRole('button', { name: 'New record' }).click();
  await expect(page.getByText('Find the patient by name or MRN')).toBeVisible();
  await screenshot(page, 'crf-record-editor-1440-en');
});

test('a free-link answer keeps its code, shows as not linked, is linked to a patient and then shows in the patient view', async ({
  page,
  browser,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(account('admin'));
  const name = `链接患者${run}`;
  const pid = await patient(key, `LK${run}`, name);
  const formName = `免登录关联 ${run}`;
  const formId = await publishedForm(key, formName);
  // A free-access respondent types a code; the answer is kept, not linked.
  const link = await restCall<{ path: string }>('POST', 'free_access', key, {
    scopeKind: 'crf',
    objectId: String(formId),
    hours: 1,
  });
  const context = await browser.newContext();
  const freePage = await context.newPage();
  await freePage.goto(link.body.data.path);
  await expect(freePage.locator('#crf-subject')).toBeVisible({ timeout: 60_000 });
  await freePage.locator('#crf-subject').fill(`WX${run}`);
  await freePage.locator('[data-item="q1"]').getByText('否').click();
  await freePage.getByRole('button', { name: '提 交' }).click();
  await expect(freePage.getByText('已提交，感谢填写')).toBeVisible();
  await context.close();

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}`);
  const freeRow = page.getByRole('row').filter({ hasText: `WX${run}` });
  await expect(freeRow.getByText('未关联患者')).toBeVisible({ timeout: 60_000 });
  await expect(freeRow).toContainText('免登录链接');
  await freeRow.getByRole('button', { name: '打开' }).click();
  await expect(page.getByTestId('crf-unlinked')).toBeVisible();
  await pickPatient(page, name);
  await page.getByTestId('crf-link-patient').click();
  await expect(page.getByTestId('crf-unlinked')).toHaveCount(0);
  await expect(page.getByTestId('crf-subject-name')).toHaveText(name);

  // The patient view's 患者表单 tab shows the record of the patient.
  await page.goto(`/personalInformation/form/patient?id=${pid}`);
  await page
    .locator('.ant-space')
    .filter({ hasText: '此患者的 CRF 记录' })
    .locator('.ant-select')
    .click({ timeout: 60_000 });
  await page.locator('.ant-select-dropdown:visible').getByText(formName).click();
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await expect(page.locator('.ant-table-row')).toContainText(`WX${run}`);
});

test('the designer speaks the reader’s language: item types, new items, operators, a rule value picked from the options, problems in words', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  const run = runId();
  const key = await apiLogin(account('admin'));
  // The rule compares the choice item with 是, the option's name, not its code: a problem.
  const made = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `设计用语 ${run}`,
    definition: {
      ...FOLLOW_UP,
      showRules: [{ indicatorName: 'q1', condition: 'equals', indicatorVal: '是', selectItems: ['q2'] }],
    },
  });
  const formId = made.body.data.id;

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/crf-management/hepatopathyPoc/edit?id=${formId}`);
  const problems = page.getByTestId('designer-problem');
  await expect(problems).toHaveText('显示规则 1：“有无吸烟”的选项中没有“是”', { timeout: 60_000 });
  await expect(page.getByTestId('outline-q1')).toContainText('单选题');
  await expect(page.getByTestId('outline-q2')).toContainText('填空题');
  const rule = page.getByTestId('rule-0');
  await expect(rule).toContainText('等于');
  await expect(page.locator('body')).not.toContainText('equals');
  await expect(page.locator('body')).not.toContainText('showRules.0');

  // A new item is titled in words and listed by its type's name.
  await page.mouse.move(0, 0);
  await page.getByTestId('add-item').hover();
  const entry = page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '多选题', exact: true });
  await expect(entry).toBeVisible();
  await entry.press('Enter');
  await expect(page.getByTestId('outline-q3')).toContainText('新多选题');
  await expect(page.locator('#prop-title')).toHaveValue('新多选题');
  await screenshot(page, 'crf-designer-1440-zh');

  await inEnglish(page);
  await expect(page.getByTestId('designer-problem')).toHaveText(
    'Show rule 1: “是” is not among the options of “有无吸烟”',
    { timeout: 60_000 },
  );
  await expect(page.getByTestId('outline-q1')).toContainText('Single choice');
  await expect(page.getByTestId('rule-0')).toContainText('equals');

  // The value is picked from the item's options: the problem goes.
  await page.getByTestId('rule-0').locator('.ant-select').nth(2).click();
  await page.locator('.ant-select-dropdown:visible').last().getByText('否', { exact: true }).click();
  await expect(page.getByText('No problems found')).toBeVisible();
  await screenshot(page, 'crf-designer-1440-en');
});

test('unsaved edits of the designer and of a record are not lost without a word: route change, tab close, browser unload', async ({
  page,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(account('admin'));
  const formName = `未保存 ${run}`;
  const formId = await publishedForm(key, formName);
  await patient(key, `UN${run}`, `未保存患者${run}`);

  await signInToWorkbench(page, account('admin'));
  await page.goto('/crf-management/crfManagement');
  const formRow = page.getByRole('row').filter({ hasText: formName });
  await expect(formRow).toBeVisible({ timeout: 60_000 });

  // 归档 says what archiving does before it does it.
  await formRow.getByText('归档').click();
  const confirm = page.locator('.ant-popover:visible');
  await expect(confirm).toContainText(`归档表单“${formName}”？`);
  await expect(confirm).toContainText('归档后不能再为此表单新建记录');
  await confirm.getByRole('button', { name: /取\s*消/ }).click();
  // The versions dialog labels its first column as the version, not the latest one.
  await formRow.getByText('版本', { exact: true }).click();
  const drawer = page.locator('.ant-drawer');
  await expect(drawer.getByRole('columnheader', { name: '版本号' })).toBeVisible();
  await expect(drawer.getByRole('columnheader', { name: '最新版本' })).toHaveCount(0);
  await drawer.locator('.ant-drawer-close').click();

  // The designer, opened from the list: a second tab.
  await formRow.getByText('设计').click();
  await expect(page).toHaveURL(/hepatopathyPoc\/edit/);
  await expect(page.getByTestId('outline-q2')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('outline-q2').click();
  await page.locator('#prop-title').fill('ALT（U/L）');
  // Closing its tab asks; staying keeps the tab and the edit.
  const tabs = page.getByTestId('multi-tabs');
  const designerTab = tabs.locator('.ant-tabs-tab-active');
  await designerTab.locator('.ant-tabs-tab-remove').click();
  const ask = page.getByRole('dialog').filter({ hasText: '有未保存的修改' });
  await expect(ask).toBeVisible();
  await screenshot(page, 'crf-designer-unsaved');
  await ask.getByRole('button', { name: '留下继续编辑' }).click();
  await expect(page).toHaveURL(/hepatopathyPoc\/edit/);
  await expect(page.locator('#prop-title')).toHaveValue('ALT（U/L）');
  // A route change asks too; leaving goes.
  await tabs.getByText('CRF 列表').click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '放弃修改并离开' }).click();
  await expect(page).toHaveURL(/crfManagement/);

  // A record being filled: going back to the list asks.
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}&record=new`);
  await expect(page.locator('#crf-q2')).toBeVisible({ timeout: 60_000 });
  await page.locator('#crf-q2').fill('55');
  await page.getByRole('button', { name: '返回列表' }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '留下继续编辑' }).click();
  await expect(page.locator('#crf-q2')).toHaveValue('55');
  // Closing the browser tab gets the browser's own question.
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => resolve(d.type())));
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});

test('a national ID item is checked in the browser before anything is sent, and number blanks keep the item’s decimals', async ({
  page,
}) => {
  const run = runId();
  const key = await apiLogin(account('admin'));
  const formId = await publishedForm(key, `身份证 ${run}`, {
    pages: [
      {
        key: 'p',
        items: [
          { key: 'idno', type: 'textQuestion', title: '身份证号', textType: 'nationalId' },
          {
            key: 'temp',
            type: 'gapFilling',
            title: '体温 ___ ℃',
            fixed: 1,
            gapFilling: [{ key: 't', gapFillingProperty: 'number' }],
          },
        ],
      },
    ],
  });
  const name = `身份证患者${run}`;
  await patient(key, `ID${run}`, name);

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}&record=new`);
  await expect(page.locator('#crf-idno')).toBeVisible({ timeout: 60_000 });
  await pickPatient(page, name);
  let posted = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes(`/crf/forms/${formId}/records`)) posted += 1;
  });
  await page.locator('#crf-idno').fill('110105194912310021');
  await page.locator('#crf-temp-t').fill('36.57');
  await page.locator('#crf-temp-t').blur();
  await expect(page.locator('#crf-temp-t')).toHaveValue('36.6');
  await page.getByRole('button', { name: '提 交' }).click();
  await expect(page.locator('[data-item="idno"] .ant-form-item-explain-error')).toHaveText(
    '第1页第1题身份证号校验位错误',
  );
  expect(posted).toBe(0);
  await screenshot(page, 'crf-national-id');

  await page.locator('#crf-idno').fill('11010519491231002X');
  await page.getByRole('button', { name: '提 交' }).click();
  await expect(page).toHaveURL(/recordId=\d+/);
  const id = Number(new URL(page.url()).searchParams.get('recordId'));
  const stored = await restCall<{ record: { answers: Record<string, unknown> } }>(
    'GET',
    `crf/records/${id}`,
    key,
  );
  expect(stored.body.data.record.answers).toMatchObject({ idno: '11010519491231002X', temp: { t: 36.6 } });
});
