import type { Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * Task scheduling: an administrator schedules the push of a disease library (made through the
 * API), sees the next run times while typing the cron expression, runs it now, follows the job to
 * its success in the job list and opens its details, then disables the schedule.
 */
const FORM_DEF = {
  pages: [
    {
      key: 'base',
      title: '调度测试',
      items: [{ key: 'note', type: 'textQuestion', title: '备注', textType: 'text' }],
    },
  ],
};

async function ok<T>(p: Promise<{ status: number; body: { data: T } }>) {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function pickOption(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('dialog').getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

test('an administrator schedules a disease-library push, runs it now, follows the job and disables the schedule', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Names of this attempt only, so a retry or a repeat finds its own rows.
  const RUN = runId();
  const LIBRARY = `E2E调度库${RUN}`;
  const SCHEDULE = `E2E每日推送${RUN}`;
  const CODE = `Z99.9X${RUN}`;
  const key = await apiLogin(account('admin'));

  // One patient with this attempt's own diagnosis code, a published form and the library.
  const patient = await ok(
    restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `TS${RUN}`,
      name: '调度患者',
      gender: 1,
      birthDate: '1970-01-01',
    }),
  );
  await ok(
    restCall('POST', `cdr/patients/${patient.id}/records`, key, {
      table: 'diagnoses',
      row: { icd10: CODE, name: '调度测试诊断', diagnosedAt: '2024-03-01T08:00:00+08:00' },
    }),
  );
  const form = await ok(
    restCall<{ id: number }>('POST', 'crf/forms', key, { name: `E2E调度表${RUN}`, definition: FORM_DEF }),
  );
  await ok(restCall('POST', `crf/forms/${form.id}/publish`, key, { note: 'v1' }));
  const library = await ok(
    restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
      name: LIBRARY,
      crfFormId: form.id,
      criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [CODE] }], exclusion: [] },
    }),
  );

  await signInToWorkbench(page, account('admin'));
  await page.goto('/task-scheduling/task-scheduling');
  await expect(page.getByText('按 Cron 表达式定时运行作业')).toBeVisible();

  // A new schedule: the push of the library, at 03:30 every day; the next runs show as we type.
  await page.getByRole('button', { name: '新建调度' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('名称').fill(SCHEDULE);
  await pickOption(page, '作业类型', '专病库患者推送');
  await pickOption(page, '专病库', LIBRARY);
  const cron = dialog.getByLabel('Cron 表达式');
  await cron.fill('61 * * * *');
  await expect(dialog.getByTestId('cron-error')).toContainText('minute');
  await screenshot(page, 'task-scheduling-1-bad-cron');
  await cron.fill('30 3 * * *');
  const next = dialog.getByTestId('cron-next');
  await expect(next).toContainText('接下来 5 次运行（Asia/Shanghai）');
  await expect(next.locator('.ant-list-item')).toHaveCount(5);
  await expect(next.locator('.ant-list-item').first()).toContainText('03:30');
  await screenshot(page, 'task-scheduling-2-form');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: SCHEDULE });
  await expect(row).toBeVisible();
  await expect(row).toContainText(LIBRARY);
  await expect(row).toContainText('03:30');
  await screenshot(page, 'task-scheduling-3-schedules');

  // Run it now: a job is queued at once.
  await row.getByRole('button', { name: '立即运行' }).click();
  await page
    .locator('.ant-popover:visible')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  const toast = page.locator('.ant-message').getByText(/已排入作业 #\d+/);
  await expect(toast).toBeVisible();
  const jobId = Number(((await toast.textContent()) ?? '').match(/#(\d+)/)![1]);

  // The job list shows it succeeding (the list refreshes itself while a job is under way).
  await page.getByRole('button', { name: '作业管理' }).click();
  await expect(page).toHaveURL(/\/task-scheduling\/project-management/);
  const jobRow = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `#${jobId}`, exact: true }) });
  await expect(jobRow).toContainText('成功', { timeout: 30_000 });
  await expect(jobRow).toContainText('专病库患者推送');
  await expect(jobRow).toContainText(`调度「${SCHEDULE}」（立即运行）`);
  await expect(jobRow).toContainText('新增 1');
  await screenshot(page, 'task-scheduling-4-jobs');

  // Its details: who, when, params and result as JSON.
  await jobRow.getByRole('button', { name: '详情' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText(`作业 #${jobId}`);
  await expect(drawer.getByTestId('job-json').first()).toContainText(`"libraryId": ${library.id}`);
  await expect(drawer.getByTestId('job-json').last()).toContainText('"added": 1');
  await expect(drawer).toContainText('admin');
  // The picture once the drawer has slid in.
  await expect(page.locator('.ant-drawer-content-wrapper')).not.toHaveClass(/motion/);
  await screenshot(page, 'task-scheduling-5-job-detail');
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(drawer).toBeHidden();

  // Disable the schedule: it no longer has a next run.
  await page.getByRole('button', { name: '调度任务' }).click();
  const again = page.getByRole('row').filter({ hasText: SCHEDULE });
  await again.getByRole('switch').click();
  await expect(page.locator('.ant-message')).toContainText('已停用');
  await expect(again.getByRole('switch')).not.toBeChecked();
  await expect(again).toContainText('-');
  // The picture after the switch's slide (and without the pointer's hover colour).
  await page.mouse.move(0, 0);
  await expect(again.getByRole('switch')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0.25)');
  await screenshot(page, 'task-scheduling-6-disabled');
  const list = await ok(
    restCall<{ list: Array<{ name: string; enabled: boolean; nextRunAt: string | null }> }>(
      'GET',
      `task-scheduling/schedules?name=${encodeURIComponent(SCHEDULE)}`,
      key,
    ),
  );
  expect(list.list).toEqual([expect.objectContaining({ name: SCHEDULE, enabled: false, nextRunAt: null })]);

  // The same screens in English: labels of the screen and words from the server.
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.goto('/task-scheduling/task-scheduling');
  const en = page.getByRole('row').filter({ hasText: SCHEDULE });
  await expect(en).toContainText('Disease library push');
  await expect(
    page.getByText("Runs jobs on a cron expression, in the server's time zone Asia/Shanghai."),
  ).toBeVisible();
  await screenshot(page, 'task-scheduling-7-schedules-en');
  await page.goto('/task-scheduling/project-management');
  const enJob = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `#${jobId}`, exact: true }) });
  await expect(enJob).toContainText('Succeeded');
  await expect(enJob).toContainText(`schedule “${SCHEDULE}” (run now)`);
  await enJob.getByRole('button', { name: 'Details' }).click();
  await expect(page.locator('.ant-drawer-content')).toContainText('Parameters');
  await expect(page.locator('.ant-drawer-content-wrapper')).not.toHaveClass(/motion/);
  await screenshot(page, 'task-scheduling-8-job-en');
});
