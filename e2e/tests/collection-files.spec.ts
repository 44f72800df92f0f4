import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { csvPatientTemplate } from '../../apps/server/src/collection/test/files';
import {
  apiLogin,
  dialog,
  expect,
  restCall,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  test,
} from '../fixtures';

/**
 * A folder of CSV files as a collection source (issue 17): the hospital's IT drops a HIS export
 * into the server's collection files folder; a data manager registers the folder, tests it (each
 * file a table, Chinese headers shown beside their column names), and a task collects it; the
 * change records name the run. The folder and its numbers carry the story's run id.
 */
test('a data manager collects a folder of CSV files exported from the HIS', async ({ page, ownAdmin }) => {
  test.slow();
  const run = runId();
  const folder = `his-export-${run}`;
  const dir = path.join(process.env.E2E_COLLECTION_FILES!, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'patients.csv'),
    `\uFEFF病案号,姓名,性别\r\nC${run}01,文件王一,M\r\nC${run}02,文件李二,F\r\n`,
  );
  const key = await apiLogin(ownAdmin);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  await page.goto('/data-lake/task-config?tab=sources');
  const config = page.getByTestId('task-config');
  await config.getByRole('button', { name: '新增数据源' }).click();
  const form = page.getByTestId('source-form');
  await form.getByLabel('名称').fill(`导出${run}`);
  await form.locator('.ant-select', { has: page.getByLabel('类型') }).click();
  await page.locator('.ant-select-item-option', { hasText: 'CSV 文件夹' }).click();
  // A path that leaves the files folder is refused in the form.
  await form.getByLabel('文件夹').fill('../etc');
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(form).toContainText('不能含 ..');
  await form.getByLabel('文件夹').fill(folder);
  await settled(page);
  await screenshot(page, 'collection-csv-source-form');
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  const sourceRow = page.getByRole('row', { name: new RegExp(`导出${run}`) });
  await expect(sourceRow).toContainText(`文件夹：${folder}`);
  await expect(sourceRow).toContainText('CSV 文件夹');
  await sourceRow.getByRole('button', { name: '测试连接' }).click();
  const probe = page.getByTestId('probe-ok');
  await expect(probe).toContainText('patients');
  await settled(page);
  await screenshot(page, 'collection-csv-probe');

  // The template and the task through the API (the editor is shown in the database story), the run on screen.
  const sources = await restCall<{ items: Array<{ id: number; name: string }> }>(
    'GET',
    'collection/sources',
    key,
  );
  const sourceId = sources.body.data.items.find((s) => s.name === `导出${run}`)!.id;
  const template = await restCall<{ id: number }>(
    'POST',
    'collection/templates',
    key,
    csvPatientTemplate(sourceId, `文件病人${run}`),
  );
  expect(template.status, JSON.stringify(template.body)).toBe(200);
  const task = await restCall<{ id: number }>('POST', 'collection/tasks', key, {
    name: `文件采集${run}`,
    templateIds: [template.body.data.id],
  });
  expect(task.status, JSON.stringify(task.body)).toBe(200);
  await page.goto('/data-lake/collect-task-list');
  const taskRow = page.getByRole('row', { name: new RegExp(`文件采集${run}`) });
  await taskRow.getByTestId('run-task').click();
  await expect(taskRow).toContainText('成功', { timeout: 60_000 });
  await expect(taskRow).toContainText('读 2 · 新增 2 · 更新 0 · 拒绝 0');
  await taskRow.getByTestId('run-detail').click();
  await page.getByRole('link', { name: '查看这次运行的变更记录' }).click();
  const changes = page.getByTestId('changes-table');
  await expect(changes).toContainText('文件王一');
  await expect(changes).toContainText(`导出${run}`);
  await expect(changes).toContainText('采集运行 #');
  await settled(page);
  await screenshot(page, 'collection-csv-changes');
});
