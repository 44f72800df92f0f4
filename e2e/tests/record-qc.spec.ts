import { apiLogin, expect, restCall, runId, screenshot, settled, signInToWorkbench, test } from '../fixtures';

/**
 * Medical-record QC (issue 19): a QC officer looks at the check catalogue, makes a plan for one
 * department (the story's own, so other stories' visits stay out), runs it, reads the department's
 * score, the trend, the doctors' and the documents' scores, exports the faults as Excel and opens
 * the late admission note from its fault in the patient's personal view.
 */
test('a QC officer runs a record-QC plan on synthetic notes and opens a fault', async ({
  page,
  ownAdmin,
}) => {
  const run = runId();
  const dept = `质控科${run}`;
  const key = await apiLogin(ownAdmin);
  const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
    mrn: `QC${run}`,
    name: `质控患者${run}`,
    gender: 1,
  });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const record = async (table: string, row: Record<string, unknown>) => {
    const r = await restCall<{ id: number }>('POST', `cdr/patients/${p.body.data.id}/records`, key, {
      table,
      row,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id;
  };
  const visitId = await record('visits', {
    kind: 'inpatient',
    department: dept,
    doctor: `陈主任${run}`,
    admitAt: '2024-03-01T08:00:00+08:00',
    dischargeAt: '2024-03-05T08:00:00+08:00',
  });
  // The admission note 30 h after admission; no discharge summary.
  const noteId = await record('documents', {
    visitId,
    kind: 'admission',
    title: '入院记录',
    body: '主诉：胸痛2天。\n现病史：2天前出现胸痛。\n既往史：高血压。\n体格检查：血压140/90mmHg。\n初步诊断：冠心病。',
    author: `刘医生${run}`,
    writtenAt: '2024-03-02T14:00:00+08:00',
  });
  await record('documents', {
    visitId,
    kind: 'progress',
    title: '首次病程记录',
    body: '病例特点：胸痛。',
    writtenAt: '2024-03-01T11:00:00+08:00',
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);
  await page.goto('/record-qc/rule');
  await expect(page.getByTestId('record-qc-rules')).toContainText('入院记录及时完成');
  await settled(page);
  await screenshot(page, 'record-qc-rules');

  await page.goto('/record-qc/plan');
  await page.getByRole('button', { name: '新建方案' }).click();
  const modal = page.locator('.ant-modal-content');
  await modal.getByLabel('方案名称').fill(`三月病历${run}`);
  await modal.getByLabel('科室').fill(dept);
  await modal.getByLabel('科室').press('Enter');
  // Other stories' stays offer their departments too: the open list would cover the buttons.
  await modal.getByLabel('方案名称').click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await screenshot(page, 'record-qc-plan-form');
  await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
  const row = page.getByRole('row', { name: new RegExp(`三月病历${run}`) });
  await expect(row).toContainText(dept);
  await row.getByRole('button', { name: '运行' }).click();

  await expect(page).toHaveURL(/\/record-qc\/task\?task=\d+/);
  const scores = page.getByTestId('record-qc-scores');
  await expect(scores).toContainText(dept, { timeout: 30_000 });
  // One stay: 100 − 5 (late admission note) − 10 (no discharge summary) = 85.
  await expect(scores.getByRole('row', { name: new RegExp(dept) })).toContainText('85');
  const faults = page.getByTestId('record-qc-faults');
  await expect(faults).toContainText('入院记录在入院后 30 小时完成');
  await expect(faults).toContainText('已出院但没有出院记录');
  // The trend: March 2024, the month of the stay's admission, scores 85.
  const trend = page.getByTestId('record-qc-trend');
  await expect(trend.locator('canvas')).toBeVisible();
  await settled(page);
  await screenshot(page, 'record-qc-task');

  // Per doctor: the late note is laid to its author (100 − 5), the missing summary to the doctor
  // in charge (100 − 10); choosing a doctor narrows the faults to theirs.
  await page.getByRole('tab', { name: '按医师' }).click();
  const doctors = page.getByTestId('record-qc-doctors');
  await expect(doctors.getByRole('row', { name: new RegExp(`刘医生${run}`) })).toContainText('95');
  await expect(doctors.getByRole('row', { name: new RegExp(`陈主任${run}`) })).toContainText('90');
  await doctors.getByRole('row', { name: new RegExp(`刘医生${run}`) }).click();
  await expect(faults.getByRole('row')).toHaveCount(2); // header + the one fault
  await expect(faults).toContainText('入院记录在入院后 30 小时完成');
  await settled(page);
  await screenshot(page, 'record-qc-doctors');

  // Per document, and the fault list as an Excel file.
  await page.getByRole('tab', { name: '按文书' }).click();
  await expect(page.getByTestId('record-qc-documents').getByRole('row', { name: /入院记录/ })).toContainText(
    '95',
  );
  await settled(page);
  await screenshot(page, 'record-qc-documents');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).click();
  expect((await download).suggestedFilename()).toMatch(/^record-qc-\d+\.xlsx$/);

  await faults
    .getByRole('row', { name: /入院记录在入院后/ })
    .getByRole('link', { name: '入院记录' })
    .click();
  await expect(page).toHaveURL(new RegExp(`doc=${noteId}`));
  await expect(page.locator(`[data-doc-id="${noteId}"]`)).toContainText('既往史：高血压');
  await settled(page);
  await screenshot(page, 'record-qc-document');
});
