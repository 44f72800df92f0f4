import { account, expect, screenshot, signInToWorkbench, test } from '../fixtures';

test.use({ viewport: { width: 500, height: 860 } });

test('on a 500-px screen the menu is a drawer opened from the header', async ({ page }) => {
  await signInToWorkbench(page, account('researcher'));
  const drawer = page.locator('.ant-drawer .ant-pro-sider-menu');
  await expect(drawer).toBeHidden();
  await page.locator('.ant-pro-global-header-collapsed-button').click();
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('数据采集');
  await screenshot(page, 'mobile-drawer');
  await drawer.getByText('数据采集', { exact: true }).click();
  await drawer.getByRole('link', { name: '数据总览' }).click();
  await expect(page).toHaveURL(/\/data-lake\/overviews$/);
});
