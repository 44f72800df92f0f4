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
 * 医院预测浏览 (issue 17): a manager reads emergency visits per day and the next 30 days. The story
 * adds two weeks of emergency visits ending on 2035-01-14, later than any other story's data, so
 * the forecast starts on 2035-01-15 whatever else the shared hospital holds.
 */
test('a manager reads the daily visits and the 30-day forecast with its intervals', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  const key = await apiLogin(ownAdmin);
  // Two weeks, a weekly pattern with some noise: 2 3 1 2 4 1 1, then 3 3 2 2 4 1 2 (2035-01-01 is a Monday).
  const perDay = [2, 3, 1, 2, 4, 1, 1, 3, 3, 2, 2, 4, 1, 2];
  const visits = perDay.flatMap((n, i) =>
    Array.from({ length: n }, (_, j) => ({
      table: 'visits',
      row: {
        kind: 'emergency',
        department: '急诊科',
        admitAt: `${new Date(Date.UTC(2035, 0, 1 + i)).toISOString().slice(0, 10)}T1${j}:00:00+08:00`,
      },
    })),
  );
  await patientWithRecords(key, { mrn: `FC${run}`, name: `预测${run}`, gender: 1 }, visits);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/data-lake/hos-forecaset-browse?kind=emergency&history=56');
  const screen = page.getByTestId('forecast');
  await expect(page.getByTestId('forecast-as-of')).toHaveText('数据截至 2035-01-14');
  const table = page.getByTestId('forecast-table');
  // The first forecast day repeats the last Tuesday (3 visits).
  await expect(table.getByRole('row').nth(1)).toContainText('2035-01-15');
  await expect(table.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('3');
  await expect(screen.locator('canvas').first()).toBeVisible();
  await expect(screen).toContainText('季节性朴素法');
  await settled(page);
  await screenshot(page, 'forecast');
  // Another kind with no visits in this hospital's far future still answers, with its own date.
  await screen.locator('.ant-select:has([aria-label="就诊类型"])').click();
  await page.locator('.ant-select-dropdown:visible').getByText('住院（入院人次）').click();
  await expect(page).toHaveURL(/kind=inpatient/);
  await expect(screen).not.toContainText('数据截至 2035-01-14');
  await switchLanguage(page, 'English');
  await page.goto('/data-lake/hos-forecaset-browse?kind=emergency&history=56');
  await expect(page.getByTestId('forecast-as-of')).toHaveText('Data up to 2035-01-14');
  await settled(page);
  await screenshot(page, 'forecast-en');
});
