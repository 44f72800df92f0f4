import {
  apiLogin,
  expect,
  patientWithRecords,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * Directory browsing (目录浏览, issue 17): from the CDR browser a data manager opens the directory,
 * sees each table's rows and each field's fill rate, and a field's values; an identifying field
 * shows only its counts. The story adds its own patient and results (other stories add more to the
 * same hospital, so counts are checked as at least what this story wrote).
 */
test('a data manager reads the directory: rows, fill rates, a field’s values, never a name', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(ownAdmin);
  await patientWithRecords(
    key,
    { mrn: `DIR${run}`, name: `目录${run}`, gender: 2, birthDate: '1971-02-03' },
    [35, 70, 140].map((v) => ({
      table: 'labResults',
      row: {
        itemCode: `DIR${run}`,
        itemName: '目录检验',
        valueNum: v,
        unit: 'U/L',
        collectedAt: '2024-03-01T08:00:00+08:00',
      },
    })),
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/data-lake/cdr-browser');
  await page.getByTestId('open-directory').click();
  await expect(page).toHaveURL(/\/data-lake\/directory-browsing\?table=patients/);
  const tables = page.getByTestId('directory-tables');
  await expect(tables).toContainText('检验结果');
  await tables.getByText('检验结果').click();
  await expect(page).toHaveURL(/table=labResults/);
  const fields = page.getByTestId('directory-fields');
  await expect(fields).toContainText('项目编码');
  await expect(fields.locator('tr', { hasText: '数值结果' })).toContainText('数值');
  await settled(page);
  await screenshot(page, 'directory-1440-zh');

  await page.getByTestId('profile-valueNum').click();
  const profile = page.getByTestId('field-profile');
  await expect(profile).toContainText('中位数');
  await expect(profile).toContainText('分布');
  await settled(page);
  await screenshot(page, 'directory-profile-1440-zh');
  await page.keyboard.press('Escape');

  // A patient's name: counted, never listed.
  await tables.getByText('患者').click();
  await expect(fields.locator('tr', { hasText: '姓名' })).toContainText('身份信息');
  await page.getByTestId('profile-name').click();
  await expect(profile).toContainText('只统计填写数，不列出取值');
  await expect(profile).not.toContainText(`目录${run}`);
  await page.keyboard.press('Escape');

  await switchLanguage(page, 'English');
  await expect(page.getByTestId('directory')).toContainText('Directory');
  await expect(fields).toContainText('Date of birth');
  await page.getByTestId('profile-birthDate').click();
  await expect(profile).toContainText('By year');
  await expect(profile).toContainText('1971');
  await settled(page);
  await screenshot(page, 'directory-profile-1440-en');
  await page.keyboard.press('Escape');

  // A phone opens the page at its own width.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.getByTestId('directory-table-select')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await settled(page);
  await screenshot(page, 'directory-375-en');
  await switchLanguage(page, '简体中文');
  await expect(page.getByTestId('directory')).toContainText('目录浏览');
  await settled(page);
  await screenshot(page, 'directory-375-zh');
});
