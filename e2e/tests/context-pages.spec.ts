import type { Page } from '@playwright/test';
import {
  account,
  apiLogin,
  expect,
  restCall,
  runId,
  screenshot,
  signIn,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * Issue 16, "Everywhere" and "Disease library": pages that need an object are reached with it
 * (the chosen library is remembered and in the address), one tab per route names its object,
 * a refusal belongs to its page, and what cannot be done yet is said up front.
 */

// Full page loads on a loaded CI machine (two workers, two cores) can take a while: the first wait
// after each load is long, the stories' limits too.
test.describe.configure({ timeout: 240_000 });
const LOAD = { timeout: 60_000 };

const tabs = (page: Page) => page.locator('.crdp-tabs .ant-tabs-tab');
const menu = (page: Page) => page.locator('.ant-pro-sider-menu');

/** A library of three patients with a diagnosis code of this attempt, pushed. */
async function pushedLibrary(key: string, run: string) {
  const code = `B18.1C${run}`;
  for (let i = 0; i < 3; i++) {
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `CTX${run}-${i}`,
      name: `上下文患者${run}-${i + 1}`,
      gender: 1 + (i % 2),
      birthDate: `${1960 + i}-03-01`,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const d = await restCall('POST', `cdr/patients/${p.body.data.id}/records`, key, {
      table: 'diagnoses',
      row: { icd10: code, name: '慢性乙型病毒性肝炎', diagnosedAt: '2024-03-10T08:00:00+08:00' },
    });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
  }
  const form = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `E2E上下文表${run}`,
    definition: {
      pages: [{ key: 'base', title: '基线', items: [{ key: 'note', type: 'textQuestion', title: '备注' }] }],
    },
  });
  expect(form.status, JSON.stringify(form.body)).toBe(200);
  const pub = await restCall('POST', `crf/forms/${form.body.data.id}/publish`, key, { note: 'v1' });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  const name = `E2E上下文库${run}`;
  const lib = await restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
    name,
    crfFormId: form.body.data.id,
    criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [code] }], exclusion: [] },
  });
  expect(lib.status, JSON.stringify(lib.body)).toBe(200);
  const id = lib.body.data.id;
  const push = await restCall<{ jobId: number }>('POST', `diseaselibrary/libraries/${id}/push`, key, {});
  expect(push.status, JSON.stringify(push.body)).toBe(200);
  await expect(async () => {
    const job = await restCall<{ status: string }>('GET', `jobs/${push.body.data.jobId}`, key);
    expect(job.body.data.status).toBe('succeeded');
  }).toPass({ timeout: 60_000 });
  return { id, name };
}

test('context-only pages are not in the menu; a library sub-page remembers the library in its address and its one tab', async ({
  page,
}) => {
  const run = runId();
  const admin = account('admin');
  const lib = await pushedLibrary(await apiLogin(admin), run);
  await signInToWorkbench(page, admin);

  // 激活详情, 编辑 CRF and 表格编辑 open from their lists with an object: never from the menu.
  await menu(page).getByText('CRF 管理', { exact: true }).click();
  await expect(menu(page).getByRole('link', { name: 'CRF 列表' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: '编辑 CRF' })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: '表格编辑' })).toHaveCount(0);
  await expect(menu(page).getByText('激活详情')).toHaveCount(0);

  // The library is chosen once, on its patient list; the next patient changes the address.
  await page.goto(`/zhuanbing-library/patients-list?libraryId=${lib.id}`);
  const rows = page.getByRole('row').filter({ hasText: `上下文患者${run}` });
  await expect(rows).toHaveCount(3, LOAD);
  await rows.first().getByRole('button', { name: '查看' }).click();
  await expect(page).toHaveURL(new RegExp(`patients-list\\?libraryId=${lib.id}&patientId=\\d+`));
  const first = new URL(page.url()).searchParams.get('patientId');
  await page.getByTestId('next-patient').click();
  await expect(page).not.toHaveURL(new RegExp(`patientId=${first}$`));
  await expect(page).toHaveURL(new RegExp(`libraryId=${lib.id}&patientId=\\d+`));
  // The address is the patient: a reload shows the same patient with the next button.
  const second = new URL(page.url()).searchParams.get('patientId');
  await page.reload();
  await expect(page.getByTestId('next-patient')).toBeVisible(LOAD);
  await page.getByTestId('next-patient').click();
  await expect(page).not.toHaveURL(new RegExp(`patientId=${second}$`));
  await expect(page.locator('[data-tab-key="/zhuanbing-library/patients-list"]')).toHaveText(
    `患者列表 · ${lib.name}`,
  );

  // Another sub-page from the menu does not ask again: it opens on the same library.
  // The 专病库 menu is open already (the patient list is in it); opening it again would close it.
  const board = menu(page).getByRole('link', { name: '专病库看板' });
  if (!(await board.isVisible())) await menu(page).getByText('专病库', { exact: true }).click();
  await board.click();
  await expect(page).toHaveURL(new RegExp(`zhuanbing-dashboard\\?libraryId=${lib.id}$`), LOAD);
  await expect(page.getByTestId('library-picker')).toContainText(lib.name, LOAD);
  await expect(page.getByTestId('dashboard-cards')).toContainText('3');
  await screenshot(page, 'context-library-dashboard-1440-zh');

  // One tab per route: the patient list opened twice with other queries is still one tab.
  const before = await tabs(page).count();
  await page.locator('[data-tab-key="/zhuanbing-library/patients-list"]').click();
  await expect(page).toHaveURL(/patients-list\?libraryId=\d+&patientId=\d+/);
  // Back to the list (only the query changes, inside the app): the same tab, no second one.
  await page.getByRole('button', { name: '返回列表' }).click();
  await expect(page).toHaveURL(new RegExp(`patients-list\\?libraryId=${lib.id}$`));
  await expect(rows).toHaveCount(3, LOAD);
  await expect(page.locator('[data-tab-key="/zhuanbing-library/patients-list"]')).toHaveCount(1);
  await expect(tabs(page)).toHaveCount(before);
  await screenshot(page, 'context-library-patients-1440-zh');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect(rows).toHaveCount(3);
  // The list scrolls inside its table on a phone, never the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screenshot(page, 'context-library-patients-375-zh');
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  // At 375 px the tab bar also lists its tabs in an overflow menu: the tab itself is the first.
  await expect(page.locator('[data-tab-key="/zhuanbing-library/patients-list"]').first()).toHaveText(
    `Patients · ${lib.name}`,
  );
  await screenshot(page, 'context-library-patients-375-en');
  await page.setViewportSize({ width: 1440, height: 900 });
  // fill_data keeps its English title.
  await page.goto('/zhuanbing-library/fill_data');
  await expect(page).toHaveURL(new RegExp(`fill_data\\?libraryId=${lib.id}$`), LOAD);
  await expect(page.locator('.ant-card-head-title').first()).toHaveText('Data entry', LOAD);
  await expect(page.locator('[data-tab-key="/zhuanbing-library/fill_data"]').first()).toHaveText(
    `Data entry · ${lib.name}`,
  );
  await screenshot(page, 'context-library-fill-1440-en');
});

test('multi-center mode off is said before a topic is filled in', async ({ page }) => {
  const admin = account('admin');
  await signInToWorkbench(page, admin);
  await page.goto('/multi-center/create-topic');
  const off = page.getByTestId('multi-center-off');
  await expect(off).toContainText('本院未开启多中心模式', LOAD);
  await expect(off).toContainText('系统配置');
  await expect(off.getByRole('link', { name: '去开启' })).toHaveAttribute('href', '/system/system-set');
  // Nothing to fill in that could only end in 403.
  await expect(page.getByLabel('主题名称')).toHaveCount(0);
  await screenshot(page, 'context-multicenter-off-1440-zh');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'context-multicenter-off-375-zh');
  await page.setViewportSize({ width: 1440, height: 900 });
});

for (const width of [1440, 375])
  test(`the sign-in refusal of a user without the product leaves the language switch free (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, account('no-product'));
    const notice = page.locator('.ant-notification-notice');
    await expect(notice).toContainText('您尚未获得该产品的访问权限！');
    const a = (await notice.boundingBox())!;
    const b = (await page.getByTestId('language-switch').boundingBox())!;
    const overlaps =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps).toBe(false);
    await screenshot(page, `context-no-product-${width}-zh`);
    // The switch still works while the notice is up.
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByTestId('language-switch')).toContainText('English');
    await screenshot(page, `context-no-product-${width}-en`);
  });

test('the permission tree marks menus that have no screen yet', async ({ page }) => {
  await signInToWorkbench(page, account('admin'));
  await page.goto('/system/role-manage');
  await page.locator('[data-testid^="role-open-"]').first().click(LOAD);
  const tree = page.getByTestId('permission-tree');
  await expect(tree).toBeVisible(LOAD);
  for (const area of ['数据模型', '系统设置'])
    await tree.locator('.ant-tree-treenode', { hasText: area }).first().locator('.ant-tree-switcher').click();
  // Every menu of the route table has its screen now (数据模型管理 since issue 20): none is marked.
  const node = (title: string) => tree.locator('.ant-tree-treenode').filter({ hasText: title }).first();
  await expect(node('数据模型管理')).not.toContainText('未开放');
  await expect(tree.getByText('未开放')).toHaveCount(0);
  await expect(node('角色管理')).not.toContainText('未开放');
  await screenshot(page, 'context-permission-tree-1440-zh');
});

test('a refused user name is shown under its field, not in a toast', async ({ page, ownAdmin }) => {
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/system/user-manage');
  await page.getByTestId('user-add').click(LOAD);
  const dialog = page.getByRole('dialog');
  // The name of a user who exists: the server refuses it and names the field.
  await page.getByTestId('user-name').fill(ownAdmin.username);
  await page.getByTestId('user-password').fill('Strong#Pass2025');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const nameField = dialog.locator('.ant-form-item').filter({ has: page.getByTestId('user-name') });
  await expect(nameField.locator('.ant-form-item-explain-error')).toContainText('已被使用');
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await screenshot(page, 'context-user-field-error-1440-zh');
});

test('Esc closes a dropdown of the create-library dialog, not the dialog; closing with edits asks first', async ({
  page,
}) => {
  await signInToWorkbench(page, account('admin'));
  await page.goto('/zhuanbing-library/library-list');
  await page.getByRole('button', { name: '创建专病库' }).click(LOAD);
  const dialog = page.getByRole('dialog', { name: '创建专病库' });
  await dialog.getByLabel('专病库名称').fill(`E2E未保存${runId()}`);
  await page.getByLabel('CRF 表单', { exact: true }).click();
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await expect(dropdown).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dropdown).toHaveCount(0);
  await expect(dialog).toBeVisible();
  // Esc on the dialog itself asks before the entered name is lost; keeping edits keeps it.
  await page.keyboard.press('Escape');
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('放弃未保存的内容？');
  await screenshot(page, 'context-discard-confirm-1440-zh');
  await confirm.getByRole('button', { name: '继续编辑' }).click();
  await expect(dialog.getByLabel('专病库名称')).toHaveValue(/E2E未保存/);
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: '放弃并关闭' }).click();
  await expect(dialog).toHaveCount(0);
});

test('closing a research subject asks first', async ({ page }) => {
  const admin = account('admin');
  const key = await apiLogin(admin);
  const subject = await restCall<{ id: number }>('POST', 'research/subjects', key, {
    name: `E2E关闭${runId()}`,
  });
  expect(subject.status, JSON.stringify(subject.body)).toBe(200);
  await signInToWorkbench(page, admin);
  await page.goto(`/scientific-research-subject/subject-list/project-data?id=${subject.body.data.id}`);
  const close = page.getByTestId('move-closed');
  await close.click(LOAD);
  const ask = page.locator('.ant-popconfirm');
  await expect(ask).toContainText('将课题状态改为“已关闭”？');
  await screenshot(page, 'context-close-confirm-1440-zh');
  // Cancel changes nothing.
  await ask.getByRole('button', { name: /取\s*消/ }).click();
  const status = await restCall<{ status: string }>('GET', `research/subjects/${subject.body.data.id}`, key);
  expect(status.body.data.status).not.toBe('closed');
  await close.click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '确认变更' }).click();
  await expect(async () => {
    const after = await restCall<{ status: string }>('GET', `research/subjects/${subject.body.data.id}`, key);
    expect(after.body.data.status).toBe('closed');
  }).toPass({ timeout: 15_000 });
});
