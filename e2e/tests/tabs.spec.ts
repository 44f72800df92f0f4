import type { Page } from '@playwright/test';
import { account, expect, signInToWorkbench, test } from '../fixtures';

const tab = (page: Page, key: string) => page.locator(`[data-tab-key="${key}"]`);
const tabs = (page: Page) => page.locator('.crdp-tabs .ant-tabs-tab');

const openDropdowns = (page: Page) => page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');

async function tabMenu(page: Page, key: string, item: string) {
  await tab(page, key).click({ button: 'right' });
  const entry = openDropdowns(page).getByRole('menuitem', { name: item });
  await expect(entry).toBeVisible();
  // A heavy page behind (charts re-laying out) can keep the popup "unstable" for Playwright's click.
  await entry.dispatchEvent('click');
  await expect(openDropdowns(page)).toHaveCount(0);
}

test('the multi-tab bar opens one tab per page and closes current, right, left and other tabs', async ({
  page,
}) => {
  await signInToWorkbench(page, account('admin'));
  // One tab alone cannot be closed.
  await expect(tabs(page)).toHaveCount(1);
  await expect(page.locator('.crdp-tabs .ant-tabs-tab-remove')).toHaveCount(0);

  const menu = page.locator('.ant-pro-sider-menu');
  await menu.getByText('数据采集', { exact: true }).click();
  await menu.getByRole('link', { name: '数据总览' }).click();
  await expect(tab(page, '/data-lake/overviews')).toBeVisible();
  await menu.getByRole('link', { name: '数据可视化' }).click();
  await expect(tab(page, '/data-lake/visualize')).toBeVisible();
  await menu.getByText('可视化', { exact: true }).click();
  await menu.getByRole('link', { name: '图表分析' }).click();
  await expect(tab(page, '/visualization/chart')).toBeVisible();
  await expect(tabs(page)).toHaveCount(4);

  await tabMenu(page, '/dashboard/workplace', '关闭左侧');
  await expect(page.locator('.ant-message')).toContainText('左侧没有标签页了');
  await tabMenu(page, '/visualization/chart', '关闭右侧');
  await expect(page.locator('.ant-message')).toContainText('右侧没有标签页了');

  await tabMenu(page, '/data-lake/visualize', '关闭右侧');
  await expect(tabs(page)).toHaveCount(3);
  await expect(page).toHaveURL(/\/data-lake\/visualize$/);

  await tabMenu(page, '/data-lake/overviews', '关闭左侧');
  await expect(tabs(page)).toHaveCount(2);
  await expect(tab(page, '/dashboard/workplace')).toHaveCount(0);

  await tabMenu(page, '/data-lake/visualize', '关闭当前');
  await expect(tabs(page)).toHaveCount(1);
  await expect(page).toHaveURL(/\/data-lake\/overviews$/);

  await tabMenu(page, '/data-lake/overviews', '关闭当前');
  await expect(page.locator('.ant-message')).toContainText('这是最后一个标签页，不能关闭');
  await expect(tabs(page)).toHaveCount(1);

  const workbench = menu.getByRole('link', { name: '工作台' });
  if (!(await workbench.isVisible())) await menu.getByText('工作台', { exact: true }).first().click();
  await workbench.click();
  await expect(tabs(page)).toHaveCount(2);
  await tabMenu(page, '/dashboard/workplace', '关闭其他');
  await expect(tabs(page)).toHaveCount(1);
  await expect(tab(page, '/dashboard/workplace')).toBeVisible();
});
