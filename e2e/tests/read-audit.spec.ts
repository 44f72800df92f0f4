import type { Page } from '@playwright/test';
import {
  account,
  apiLogin,
  expect,
  openOperationLog,
  ownAccount,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * Issue 15 (should fix): reads and refusals in the operation log, in words; a member with no role
 * lands on a workbench without statistics cards and without error notices, and asks the server
 * for nothing it would refuse. Each test makes its own member with no role (and its own
 * administrator), so no other story's refusals or reads count here.
 */

/** The operation log filtered to the users of this attempt (their names end in its run id). */
async function ownLog(page: Page) {
  await openOperationLog(page, runId());
}

test.describe('read and refusal audit', () => {
  test('a member with no role sees a quiet workbench and is refused nothing on it', async ({ page }) => {
    const nobody = await ownAccount('no-role', 'norole');
    await signInToWorkbench(page, nobody);
    await expect(page.getByTestId('workbench-statistics')).toBeAttached();
    // No card is asked for, so none appears and no "Forbidden" notice pops up.
    await page.waitForLoadState('networkidle');
    await expect(page.locator('[data-testid^="stat-"]')).toHaveCount(0);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await screenshot(page, 'read-audit-norole-workbench');
    const admin = await apiLogin(account('admin'));
    const denied = await restCall<{ total: number }>(
      'GET',
      `audit?page=1&size=20&user=${nobody.username}&action=access.denied`,
      admin,
    );
    expect(denied.status).toBe(200);
    expect(denied.body.data.total).toBe(0);
  });

  test('the operation log names reads and refusals in Chinese and English', async ({ page, ownAdmin }) => {
    test.setTimeout(180_000);
    const nobody = await ownAccount('no-role', 'norole');
    const admin = await apiLogin(ownAdmin);
    expect((await restCall('GET', '360?size=5', admin)).status).toBe(200);
    expect((await restCall('GET', 'topic_count', await apiLogin(nobody))).status).toBe(403);

    // Other stories write the log at the same time: the rows of this attempt's users are found by name.
    await signInToWorkbench(page, ownAdmin);
    await ownLog(page);
    await expect(page.getByRole('cell', { name: '查看', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: '患者列表', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: '拒绝访问', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: nobody.username, exact: true }).first()).toBeVisible();
    await screenshot(page, 'read-audit-log-zh');

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    // The same rows, now in English (the filter stays; a reload would read the whole log again).
    await expect(page.getByRole('cell', { name: nobody.username, exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Viewed', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Patient list', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Access denied', exact: true }).first()).toBeVisible();
    await screenshot(page, 'read-audit-log-en');
  });
});
