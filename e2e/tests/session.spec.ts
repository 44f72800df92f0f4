import { account, apiLogin, expect, restCall, signInToWorkbench, test } from '../fixtures';

test.describe('session', () => {
  test('logout asks first, says exit successful, and the old key then gets 401', async ({ page }) => {
    await signInToWorkbench(page, account('admin'));
    const key = await page.evaluate(
      () => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string,
    );
    expect((await restCall('GET', 'current_user', key)).status).toBe(200);

    await page.getByTestId('avatar-menu').hover();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page.getByText('确定要退出登录吗？')).toBeVisible();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.locator('.ant-message')).toContainText('退出成功');
    await expect(page).toHaveURL(/\/user\/login/);
    expect(await page.evaluate(() => localStorage.getItem('fygo__ACCESS_TOKEN'))).toBeNull();
    expect((await restCall('GET', 'current_user', key)).status).toBe(401);

    // The workbench now sends the person back to sign in.
    await page.goto('/dashboard/workplace');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fdashboard%2Fworkplace/);
  });

  test('a SessionKey address signs in and lands on the workbench', async ({ page }) => {
    const key = await apiLogin(account('researcher'));
    await page.goto(`/data-lake/overviews?SessionKey=${encodeURIComponent(key)}`);
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await expect(page.getByTestId('greeting')).toContainText('科研人员');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null'))).toBe(
      key,
    );
  });

  test('hide_menu hides the menu', async ({ page }) => {
    const key = await apiLogin(account('admin'));
    await page.goto(`/?SessionKey=${encodeURIComponent(key)}&hide_menu=1`);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await expect(page.locator('.ant-pro-sider-menu')).toHaveCount(0);
    await expect(page.getByTestId('multi-tabs')).toHaveCount(0);
  });

  test('a key the server no longer accepts logs out with the Unauthorized notice', async ({ page }) => {
    await page.goto('/user/login');
    await page.evaluate(() => localStorage.setItem('fygo__ACCESS_TOKEN', JSON.stringify('not-a-valid-key')));
    await page.goto('/dashboard/workplace');
    await expect(page).toHaveURL(/\/user\/login/);
    await expect(page.locator('.ant-notification')).toContainText('未授权');
  });
});
