import {
  account,
  apiLogin,
  envelope,
  expect,
  restCall,
  screenshot,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * Issue 15 (should fix): reads and refusals in the operation log, in words; a member with no role
 * lands on a workbench without statistics cards and without error notices, and asks the server
 * for nothing it would refuse.
 */
const NOBODY = { username: 'e2e-norole', password: 'Norole-Pass-2026', role: 'researcher' as const };

test.describe('read and refusal audit', () => {
  test.beforeAll(async () => {
    const admin = await apiLogin(account('admin'));
    const saved = await envelope(
      'Save',
      [{ UserName: NOBODY.username, NickName: '无角色成员', Password: NOBODY.password, RoleIds: [] }],
      admin,
      'api/merchants/merchantsuser',
    );
    expect(saved.status).toBe(200);
  });

  test('a member with no role sees a quiet workbench and is refused nothing on it', async ({ page }) => {
    await signInToWorkbench(page, NOBODY);
    await expect(page.getByTestId('workbench-statistics')).toBeAttached();
    // No card is asked for, so none appears and no "Forbidden" notice pops up.
    await page.waitForLoadState('networkidle');
    await expect(page.locator('[data-testid^="stat-"]')).toHaveCount(0);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await screenshot(page, 'read-audit-norole-workbench');
    const admin = await apiLogin(account('admin'));
    const denied = await restCall<{ total: number }>(
      'GET',
      `audit?page=1&size=20&user=${NOBODY.username}&action=access.denied`,
      admin,
    );
    expect(denied.body.data.total).toBe(0);
  });

  test('the operation log names reads and refusals in Chinese and English', async ({ page }) => {
    const admin = await apiLogin(account('admin'));
    expect((await restCall('GET', '360?size=5', admin)).status).toBe(200);
    const nobody = await apiLogin(NOBODY);
    expect((await restCall('GET', 'topic_count', nobody)).status).toBe(403);

    await signInToWorkbench(page, account('admin'));
    await page.goto('/log-management/activation-log');
    await expect(page.getByRole('cell', { name: '查看', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: '患者列表', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: '拒绝访问', exact: true }).first()).toBeVisible();
    await screenshot(page, 'read-audit-log-zh');

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('cell', { name: 'Viewed', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Patient list', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Access denied', exact: true }).first()).toBeVisible();
    await screenshot(page, 'read-audit-log-en');
  });
});
