import { readFileSync } from 'node:fs';
import { readZip } from '../../apps/server/src/test/unzip';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * The OMOP story: a data manager maps a diagnosis code to an OMOP concept, exports the clinical
 * data as OMOP CDM v5.4, reads the counts and the unmapped codes, maps one of them from the
 * task page, and downloads the ZIP of CDM tables.
 */

/** The entries of a downloaded ZIP (the API tests' reader, which checks every CRC). */
const unzip = (file: string) => readZip(readFileSync(file));

test('a data manager maps a code, exports OMOP CDM, sees counts and unmapped codes, and downloads the ZIP', async ({
  page,
}) => {
  test.setTimeout(270_000);
  // Codes and names of this attempt only, so a retry or another story never changes what it counts.
  const RUN = runId();
  const MAPPED = `E2EM${RUN}`;
  const UNMAPPED = `E2EU${RUN}`;
  const LAB = `E2ELAB${RUN}`;
  const TASK = `E2E导出${RUN}`;
  const admin = account('admin');
  const key = await apiLogin(admin);

  // Two patients with a diagnosis and a lab result each; both share the unmapped code.
  for (const [i, codes] of [[MAPPED, UNMAPPED], [UNMAPPED]].entries()) {
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `OMOP${RUN}-${i}`,
      name: `OMOP患者${i + 1}`,
      gender: i ? 2 : 1,
      birthDate: `${1960 + i * 10}-06-15`,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const id = p.body.data.id;
    const at = `2024-0${i + 3}-10T08:00:00+08:00`;
    const rec = async (table: string, row: Record<string, unknown>) => {
      const r = await restCall('POST', `cdr/patients/${id}/records`, key, { table, row });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await rec('visits', { kind: i ? 'outpatient' : 'inpatient', admitAt: at });
    for (const icd10 of codes) await rec('diagnoses', { icd10, name: `测试诊断${icd10}`, diagnosedAt: at });
    await rec('labResults', {
      itemCode: LAB,
      itemName: '测试检验',
      valueNum: 5 + i,
      unit: 'mmol/L',
      collectedAt: at,
    });
  }

  await signInToWorkbench(page, admin);

  // Mappings: add the map in the browser.
  await page.goto('/omop-cdm/mapping-manage');
  await expect(page.getByText('源编码到 OMOP 概念的映射')).toBeVisible();
  await expect(page.getByText('内置映射（无需下载词表）')).toBeVisible();
  await screenshot(page, 'omop-mappings');
  await page.getByRole('button', { name: '新建映射' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('源编码').fill(MAPPED);
  await dialog.getByLabel('OMOP 概念 ID').fill('201826');
  await dialog.getByLabel('概念名称').fill('Type 2 diabetes mellitus');
  await screenshot(page, 'omop-mapping-form');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('映射已保存')).toBeVisible();
  await page.getByLabel('关键字').fill(MAPPED);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.locator('.ant-table-row').filter({ hasText: MAPPED });
  await expect(row).toContainText('201826');
  await screenshot(page, 'omop-mappings-added');

  // Rules: the built-in set is in effect.
  await page.goto('/omop-cdm/active-mapping-rule');
  await expect(page.getByText('condition_occurrence', { exact: true })).toBeVisible();
  await expect(page.locator('.ant-table-row')).toHaveCount(6);
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  await expect(page.locator('.ant-spin-container').first()).toHaveCSS('opacity', '1');
  await screenshot(page, 'omop-rules');

  // Tasks: start an export and wait for it.
  await page.goto('/omop-cdm/active-mapping-task');
  await page.getByTestId('omop-start').click();
  await page.getByRole('dialog').getByLabel('任务名称').fill(TASK);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('导出任务已开始')).toBeVisible();
  const taskRow = page.locator('.ant-table-row').filter({ hasText: TASK });
  await expect(taskRow.getByText('成功')).toBeVisible({ timeout: 90_000 });
  // This attempt's task (the page opens the task it started; another story's may be newer).
  const detail = page.getByTestId(`task-detail-${await taskRow.getAttribute('data-row-key')}`);
  await expect(detail).toBeVisible();
  expect(Number(await detail.getByTestId('count-person').textContent())).toBeGreaterThanOrEqual(2);
  expect(Number(await detail.getByTestId('count-condition_occurrence').textContent())).toBeGreaterThanOrEqual(
    3,
  );
  expect(Number(await detail.getByTestId('count-measurement').textContent())).toBeGreaterThanOrEqual(2);
  const filter = detail.getByPlaceholder('查找源编码或名称');
  await filter.fill(RUN);
  await filter.press('Enter');
  const conditions = detail.getByTestId('unmapped-condition');
  await expect(
    conditions.locator('.ant-table-row').filter({ hasText: UNMAPPED }).locator('td').last(),
  ).toHaveText('2');
  await expect(conditions.getByText(MAPPED)).toHaveCount(0);
  await expect(detail.getByTestId('unmapped-measurement').getByText(LAB)).toBeVisible();
  await screenshot(page, 'omop-task-done');

  // Download the ZIP and read what it holds for this attempt's codes.
  const download = page.waitForEvent('download');
  await taskRow.getByRole('button', { name: '下载 ZIP' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^omop-cdm-5\.4-\d+\.zip$/);
  const zip = await unzip((await file.path())!);
  expect([...zip.keys()]).toEqual([
    'person.csv',
    'observation_period.csv',
    'visit_occurrence.csv',
    'condition_occurrence.csv',
    'drug_exposure.csv',
    'measurement.csv',
  ]);
  const conditionLines = zip.get('condition_occurrence.csv')!.split('\r\n');
  expect(conditionLines[0]).toMatch(/^condition_occurrence_id,person_id,condition_concept_id,/);
  const mine = (code: string) => conditionLines.filter((l) => l.split(',')[13] === code);
  expect(mine(MAPPED).map((l) => l.split(',')[2])).toEqual(['201826']);
  expect(mine(UNMAPPED).map((l) => l.split(',')[2])).toEqual(['0', '0']);
  for (const text of zip.values()) expect(text).not.toContain('OMOP患者');

  // Clicking an unmapped code opens the mapping form with the code filled in.
  await conditions.getByRole('button', { name: UNMAPPED }).click();
  const form = page.getByRole('dialog');
  await expect(form.getByLabel('源编码')).toHaveValue(UNMAPPED);
  await form.getByLabel('OMOP 概念 ID').fill('319835');
  await form.getByLabel('概念名称').fill('Congestive heart failure');
  await screenshot(page, 'omop-map-unmapped');
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('映射已保存')).toBeVisible();
  const check = await restCall<{ items: Array<{ sourceCode: string; conceptId: number }> }>(
    'GET',
    `omop/mappings?keyword=${UNMAPPED}&page=1&size=20`,
    key,
  );
  expect(check.body.data.items).toEqual([
    expect.objectContaining({ sourceCode: UNMAPPED, conceptId: 319835 }),
  ]);

  // The same screens in English.
  await page.goto('/omop-cdm/active-mapping-task');
  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByText('OMOP CDM exports')).toBeVisible();
  await expect(
    page.locator('[data-testid^="task-detail-"]').first().getByText('Unmapped source codes'),
  ).toBeVisible();
  await screenshot(page, 'omop-tasks-en');
  await page.goto('/omop-cdm/mapping-manage');
  await expect(page.getByText('Built-in mappings (no vocabulary download needed)')).toBeVisible();
  await screenshot(page, 'omop-mappings-en');
  await page.goto('/omop-cdm/active-mapping-rule');
  await expect(
    page.getByText('Drug orders → drug exposure').or(page.getByText('药品医嘱 → 药物暴露')),
  ).toBeVisible();
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  await expect(page.locator('.ant-spin-container').first()).toHaveCSS('opacity', '1');
  await screenshot(page, 'omop-rules-en');
});
