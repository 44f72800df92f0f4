import { account, expect, screenshot, signIn, signInToWorkbench, test } from '../fixtures';

test.describe('sign-in', () => {
  test('an address without a session goes to the login page and keeps its query', async ({ page }) => {
    await page.goto('/data-lake/overviews?hide_menu=1');
    await expect(page).toHaveURL(/\/user\/login\?hide_menu=1&redirect=%2Fdata-lake%2Foverviews/);
    await expect(page.getByTestId('login-page')).toBeVisible();
    await expect(page.getByText('© 2019 CRDP')).toBeVisible();
    await screenshot(page, 'login');
  });

  test('the root opens the workbench after sign-in, with greeting, apps and quick links', async ({
    page,
  }) => {
    const admin = account('admin');
    await page.goto('/');
    await expect(page).toHaveURL(/\/user\/login/);
    await signInToWorkbench(page, admin);
    await expect(page.getByTestId('greeting')).toContainText(/早上好|上午好|中午好|下午好|晚上好/);
    await expect(page.getByTestId('greeting')).toContainText('管理员');
    await expect(page.getByTestId('quick-links')).toContainText('系统设置');
    await expect(page.getByText('示范医院').first()).toBeVisible();
    await expect(page.getByText('© 2019 CRDP')).toBeVisible();
    await screenshot(page, 'workbench');
  });

  test('a wrong password shows the server message and stays on the login page', async ({
    page,
    ownResearcher,
  }) => {
    // A user of its own: the wrong guess counts against this user, not a shared demo account.
    await signIn(page, ownResearcher, 'Wrong#Pass1');
    await expect(page.getByTestId('login-error')).toContainText('用户名或密码错误');
    await expect(page).toHaveURL(/\/user\/login/);
  });

  test('a user whose app lacks product 22 is refused with the product message', async ({ page }) => {
    await signIn(page, account('no-product'));
    await expect(page.locator('.ant-notification')).toContainText('您尚未获得该产品的访问权限！');
    await expect(page).toHaveURL(/\/user\/login/);
    const token = await page.evaluate(() => localStorage.getItem('fygo__ACCESS_TOKEN'));
    expect(token).toBeNull();
  });
});
