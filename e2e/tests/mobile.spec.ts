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

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the header fits its bar and list pages never scroll sideways', async ({ page }) => {
    test.setTimeout(300_000);
    await signInToWorkbench(page, account('admin'));
    const header = (await page.locator('.ant-pro-global-header').first().boundingBox())!;
    for (const id of ['language-switch', 'avatar-menu']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      // Inside the 48-px header, on one line ("体中/文" wrapped to two before).
      expect(box.y).toBeGreaterThanOrEqual(header.y);
      expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height + 1);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    await screenshot(page, 'mobile-375-header-zh');
    const pages = [
      ['/crf-management/crfManagement', 'crf-list'],
      ['/system/user-manage', 'user-list'],
      ['/scientific-research-subject/subject-list', 'subject-list'],
    ] as const;
    for (const [path, name] of pages) {
      await page.goto(path);
      await expect(page.locator('.ant-table-tbody').first()).toBeVisible({ timeout: 60_000 });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, `${path} scrolls sideways`).toBeLessThanOrEqual(375);
      await screenshot(page, `mobile-375-${name}-zh`);
    }
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.locator('.ant-table-thead')).toContainText(/Name/i);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'mobile-375-subject-list-en');
    // In English too ("Local environment" is longer than 本地环境) the avatar stays in the bar.
    const bar = (await page.locator('.ant-pro-global-header').first().boundingBox())!;
    for (const id of ['environment', 'language-switch', 'avatar-menu']) {
      const box = await page.getByTestId(id).boundingBox();
      if (!box) continue; // the environment tag shows only where the site names one
      expect(box.x + box.width, id).toBeLessThanOrEqual(375);
      expect(box.y + box.height, id).toBeLessThanOrEqual(bar.y + bar.height + 1);
    }
    await screenshot(page, 'mobile-375-header-en');
  });
});
