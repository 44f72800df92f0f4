import { account, expect, screenshot, signInToWorkbench, test } from '../fixtures';

test.describe('permissions', () => {
  test('a researcher sees only their menus and gets the 403 page on a forbidden address', async ({
    page,
  }) => {
    await signInToWorkbench(page, account('researcher'));
    const menu = page.locator('.ant-pro-sider-menu');
    await expect(menu).toContainText('数据采集');
    await expect(menu).toContainText('专病库');
    await expect(menu).not.toContainText('系统设置');
    await expect(menu).not.toContainText('数据质控');
    await expect(page.getByTestId('quick-links')).not.toContainText('系统设置');

    await page.goto('/system/user-manage');
    await expect(page.getByText('抱歉，你无权访问该页面')).toBeVisible();
    await expect(page).toHaveURL(/\/system\/user-manage$/);
    await screenshot(page, 'forbidden-403');

    await page.getByRole('button', { name: '返回工作台' }).click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  });

  test('the server refuses the forbidden call too', async ({ page }) => {
    await signInToWorkbench(page, account('researcher'));
    const key = await page.evaluate(() => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null'));
    const res = await page.request.post('/api/merchants/MerchantsPermission', {
      headers: { WeAppAuthorization: key },
      data: { method: 'GetRoleList', params: [] },
    });
    expect([403, 404]).toContain(res.status());
  });

  test('an administrator sees the system settings; unknown addresses go to /404', async ({ page }) => {
    await signInToWorkbench(page, account('admin'));
    await expect(page.locator('.ant-pro-sider-menu')).toContainText('系统设置');
    // Every route of the table has its screen now: the last one to land opens, not the 404 page.
    await page.goto('/system/annotation');
    await expect(page.getByTestId('annotation-search')).toBeVisible();
    await expect(page.getByText('抱歉，你访问的页面不存在或仍在开发中')).toHaveCount(0);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('抱歉，你访问的页面不存在或仍在开发中')).toBeVisible();
  });

  test('the error pages read naturally in English too', async ({ page }) => {
    await signInToWorkbench(page, account('researcher'));
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.goto('/system/role-manage');
    await expect(page.getByText('Sorry, you have no access to this page')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back to the workbench' })).toBeVisible();
    await page.goto('/exception/500');
    await expect(page.getByText('Sorry, the server made an error')).toBeVisible();
  });
});
