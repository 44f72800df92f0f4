import { account, expect, restCall, signInToWorkbench, test } from '../fixtures';

test.describe('header and public pages', () => {
  test('the header shows the environment, the real notices with their unread count, and switches language', async ({
    page,
  }) => {
    await signInToWorkbench(page, account('admin'));
    const site = await restCall<{ environment: string; hiddenEnvironment: string }>('GET', 'site');
    if (site.body.data.environment && site.body.data.environment !== site.body.data.hiddenEnvironment) {
      await expect(page.getByTestId('environment')).toHaveText(site.body.data.environment);
    } else {
      await expect(page.getByTestId('environment')).toHaveCount(0);
    }

    const key = await page.evaluate(
      () => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string,
    );
    const notices = await restCall<{ items: Array<{ title: string }>; unread: number }>(
      'GET',
      'notices',
      key,
    );
    await page.getByTestId('notice-bell').click();
    const list = page.getByTestId('notice-list');
    await expect(list).toBeVisible();
    if (notices.body.data.items.length === 0) await expect(list).toContainText('暂无通知');
    else await expect(list).toContainText(notices.body.data.items[0]!.title);
    const badge = page.getByTestId('notice-bell').locator('.ant-badge-count');
    if (notices.body.data.unread > 0) await expect(badge).toContainText(String(notices.body.data.unread));
    else await expect(badge).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.locator('.ant-pro-sider-menu')).toContainText('Data collection');
    await expect(page.getByTestId('greeting')).toContainText('Have a nice day');
    // The tab opened in Chinese takes the new language too.
    await expect(page.getByTestId('multi-tabs').getByText('Workbench', { exact: true })).toBeVisible();
    // The site's default environment name reads in English too (a name an administrator wrote stays as written).
    if (site.body.data.environment === '本地环境')
      await expect(page.getByTestId('environment')).toHaveText('Local environment');
    await page.reload();
    await expect(page.getByTestId('greeting')).toContainText('Have a nice day');
  });

  test('the self-check page reports the service and the browser without signing in', async ({ page }) => {
    await page.goto('/test/home');
    await expect(page.getByText('系统自检')).toBeVisible();
    await expect(page.getByTestId('check-ok')).toHaveCount(2);
    await expect(page.getByRole('link', { name: '/api/docs' })).toHaveAttribute('href', '/api/docs');
  });
});
