import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiLogin,
  chooseOption,
  expect,
  patientWithRecords,
  recruitedSubject,
  restCall,
  runId,
  screenshot,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

const ODM_XSD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/odm/ODM1-3-2.xsd');

/**
 * The observation database and ODM story: a data manager runs a transform task and reads the
 * clinical-activity dashboard of the new observations, maps a local diagnosis to ICD-10 (the
 * coding area's mapping), makes a research subject an ODM topic, chooses its clinical data and a
 * data element, sets the concurrency, generates the ODM file and downloads it (valid ODM 1.3.2).
 */
test('a data manager transforms the CDR, reads the dashboard, maps a term, and generates and downloads an ODM file', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(300_000);
  const RUN = runId();
  const DEPT = `E2E科${RUN}`;
  const DX = `E2E高血压${RUN}`;
  const TASK = `E2E观察${RUN}`;
  const SUBJECT = `E2E课题${RUN}`;
  const ELEMENT = `E2E_ALT_${RUN}`.replace(/[^A-Za-z0-9._-]/g, '_');
  const key = await apiLogin(ownAdmin);
  const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

  // Two inpatient stays of the story's own department in the last days, with a diagnosis and labs.
  const patientIds: number[] = [];
  for (const [i, back] of [3, 5].entries()) {
    const at = `${day(back)}T09:00:00+08:00`;
    const id = await patientWithRecords(
      key,
      { mrn: `OBS${RUN}-${i}`, name: `观察患者${i + 1}`, gender: 1 + i },
      [],
    );
    const rec = async (table: string, row: Record<string, unknown>) => {
      const r = await restCall<{ id: number }>('POST', `cdr/patients/${id}/records`, key, { table, row });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.id;
    };
    const visitId = await rec('visits', { kind: 'inpatient', department: DEPT, admitAt: at });
    await rec('diagnoses', { visitId, icd10: 'I10', name: DX, diagnosedAt: at });
    await rec('labResults', {
      visitId,
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: 30 + i,
      unit: 'U/L',
      collectedAt: at,
    });
    await rec('operations', { visitId, name: '腹腔镜下胆囊切除术', operatedAt: at });
    patientIds.push(id);
  }
  // The research subject (the ODM topic) recruits them; the data element the file will carry.
  await recruitedSubject(key, { name: SUBJECT }, patientIds);
  const el = await restCall('POST', 'data-elements', key, {
    code: ELEMENT,
    definition: { name: `末次ALT${RUN}`, type: 'number', unit: 'U/L' },
  });
  expect(el.status, JSON.stringify(el.body)).toBe(200);

  await signInToWorkbench(page, ownAdmin);

  // Transform task: made and run in the browser; the run ends and names what it changed.
  await page.goto('/observation-database/transform-task');
  await expect(page.getByText('观察性数据库现有记录')).toBeVisible();
  await page.getByTestId('obs-task-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('任务名称').fill(TASK);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('已保存')).toBeVisible();
  const row = page.locator('.ant-table-row').filter({ hasText: TASK });
  await row.getByRole('button', { name: /运\s*行/ }).click();
  await expect(row.getByText('成功')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText(/诊断: 新增\/修改 \d+/).first()).toBeVisible();
  await screenshot(page, 'observation-transform-task');

  // Dashboard: the story's department shows its two admissions, labs and operations.
  await page.goto('/observation-database/clinical-activity-dashboard');
  await chooseOption(page, page.getByTestId('activity-department'), DEPT);
  await expect(page.getByTestId('total-admissions')).toContainText('2');
  await expect(page.getByTestId('total-labs')).toContainText('2');
  await expect(page.getByTestId('total-operations')).toContainText('2');
  await expect(page.getByTestId('activity-per-day').locator('canvas').first()).toBeVisible();
  await screenshot(page, 'observation-dashboard');

  // Term mapping: the diagnosis gets ICD-10 I10; the coding area holds the same mapping.
  await page.goto('/observation-database/term-mapping');
  await page.getByPlaceholder('搜索术语或本地编码').fill(DX);
  await page.getByPlaceholder('搜索术语或本地编码').press('Enter');
  const term = page.locator('.ant-table-row').filter({ hasText: DX });
  await expect(term).toContainText('未映射');
  await term.getByTestId(`term-map-${DX}`).click();
  await page.getByRole('dialog').getByLabel('ICD10 编码').fill('I10');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(term.getByTestId(`term-code-${DX}`)).toContainText('I10');
  await screenshot(page, 'observation-term-mapping');
  const coding = await restCall<{ items: Array<{ term: string; code: string }> }>(
    'GET',
    `coding/disease/mappings?q=${encodeURIComponent(DX)}`,
    key,
  );
  expect(coding.body.data.items).toEqual([expect.objectContaining({ term: DX, code: 'I10' })]);

  // ODM: the subject becomes a topic.
  await page.goto('/odm-generate-management/list-topics');
  await page.getByTestId('odm-topic-add').click();
  await chooseOption(page, page.getByRole('dialog').locator('.ant-select'), SUBJECT);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('主题已添加')).toBeVisible();
  const topic = page.locator('.ant-table-row').filter({ hasText: SUBJECT });
  await expect(topic).toContainText('就诊');

  // Clinical data: diagnoses and labs only.
  await page.goto('/odm-generate-management/clinical-data');
  await chooseOption(page, page.getByTestId('odm-topic-picker'), SUBJECT);
  await page.getByLabel('就诊').uncheck();
  await page.getByTestId('odm-clinical-save').click();
  await expect(page.getByText('临床数据已保存')).toBeVisible();
  await screenshot(page, 'odm-clinical-data');

  // Data element: the last ALT of each patient.
  await page.goto('/odm-generate-management/data-element');
  await chooseOption(page, page.getByTestId('odm-topic-picker'), SUBJECT);
  await page.getByTestId('odm-el-add').click();
  await chooseOption(page, page.getByTestId('odm-el-element-0'), ELEMENT, ELEMENT);
  await chooseOption(page, page.getByTestId('odm-el-domain-0'), '检验');
  await chooseOption(page, page.getByTestId('odm-el-concept-0').locator('.ant-select'), '丙氨酸氨基转移酶');
  await page.getByTestId('odm-el-save').click();
  await expect(page.getByText('数据元已保存')).toBeVisible();
  await screenshot(page, 'odm-data-element');

  // Concurrency: two at once, 50 patients a batch; the job list names the limit.
  await page.goto('/odm-generate-management/concurrent-settings');
  await page.locator('#odm-max-running').fill('2');
  await page.locator('#odm-batch-size').fill('50');
  await page.getByTestId('odm-concurrency-save').click();
  await expect(page.getByText('并发设置已保存')).toBeVisible();
  await screenshot(page, 'odm-concurrency');

  // Generate from the topic list and download the file.
  await page.goto('/odm-generate-management/list-topics');
  await topic.getByRole('button', { name: '生成 ODM' }).click();
  await expect(page.getByText('已开始生成')).toBeVisible();
  const file = page
    .locator('.ant-table-row')
    .filter({ hasText: /odm-topic\d+-/ })
    .first();
  await expect(file.getByText('成功')).toBeVisible({ timeout: 120_000 });
  await screenshot(page, 'odm-topics-generated');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    file.getByRole('button', { name: '下载' }).click(),
  ]);
  const saved = test.info().outputPath('generated-odm.xml');
  await download.saveAs(saved);
  execFileSync('xmllint', ['--noout', '--schema', ODM_XSD, saved], { stdio: 'pipe' });
  const count = (expr: string) =>
    execFileSync('xmllint', ['--xpath', expr, saved], { stdio: 'pipe' }).toString().trim();
  expect(count('count(//*[local-name()="SubjectData"])')).toBe('2');
  expect(count(`count(//*[local-name()="ItemData"][@ItemOID="I.DE.${ELEMENT}"])`)).toBe('2');
  expect(count('count(//*[local-name()="FormData"][@FormOID="F.VISIT"])')).toBe('0');

  await page.goto('/task-scheduling/project-management');
  await expect(page.getByTestId('job-limits')).toContainText('ODM 文件生成 最多同时 2 个');

  // The same screens in English.
  await page.goto('/odm-generate-management/list-topics');
  await switchLanguage(page, 'English');
  await expect(page.getByText('Generated files')).toBeVisible();
  await screenshot(page, 'odm-topics-en');
  await page.goto('/observation-database/clinical-activity-dashboard');
  await expect(page.getByText('Clinical activity per day')).toBeVisible();
  await screenshot(page, 'observation-dashboard-en');
  await switchLanguage(page, '简体中文');
});
