import { apiLogin, expect, restCall, runId, signInToWorkbench, test } from '../fixtures';

test.describe('header and public pages', () => {
  test('the header shows the environment, the real notices with their unread count, and switches language', async ({
    page,
    ownAdmin,
  }) => {
    // Notices are per user: an administrator of its own, whose unread count no other story changes.
    // A job it starts (one synthetic patient, a seed of this attempt) leaves it a notice when done.
    const ownKey = await apiLogin(ownAdmin);
    const job = await restCall<{ id: number }>('POST', 'cdr/synthetic', ownKey, {
      patients: 1,
      seed: 1_000_000_000 + Number(runId()),
    });
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    await expect
      .poll(
        async () =>
          (await restCall<{ status: string }>('GET', `jobs/${job.body.data.id}`, ownKey)).body.data.status,
        {
          timeout: 60_000,
        },
      )
      .toBe('succeeded');
    await signInToWorkbench(page, ownAdmin);
    const site = await restCall<{ environment: string; hiddenEnvironment: string }>('GET', 'site');
    if (site.body.data.environment && site.body.data.environment !== site.body.data.hiddenEnvironment) {
      await expect(page.getByTestId('environment')).toHaveText(site.body.data.environment);
    } else {
      await expect(page.getByTestId('environment')).toHaveCount(0);
    }

    // The job's notice is this user's one notice, unread (it is written as the job finishes).
    await expect
      .poll(async () => (await restCall<{ unread: number }>('GET', 'notices', ownKey)).body.data.unread)
      .toBe(1);
    const notices = await restCall<{ items: Array<{ title: string }>; unread: number }>(
      'GET',
      'notices',
      ownKey,
    );
    expect(notices.body.data.items).toHaveLength(1);
    await page.getByTestId('notice-bell').click();
    const list = page.getByTestId('notice-list');
    await expect(list).toBeVisible();
    await expect(list).toContainText(notices.body.data.items[0]!.title);
    await expect(page.getByTestId('notice-bell').locator('.ant-badge-count')).toContainText('1');
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
