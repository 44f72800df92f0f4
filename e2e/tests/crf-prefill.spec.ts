import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';
import { pickPatient } from '../fixtures-crf';

/**
 * A new CRF record for a patient prefills from the patient's clinical data: the review names each
 * item, the value, where it came from and when; an item already answered keeps its answer; what
 * the form cannot take is listed in the reader's words.
 */

const ADMISSION = {
  pages: [
    {
      key: 'p',
      title: '入院评估',
      items: [
        {
          key: 'sex',
          type: 'radio',
          title: '性别',
          options: [
            { name: '男', code: 'M' },
            { name: '女', code: 'F' },
          ],
        },
        { key: 'alt', type: 'textQuestion', title: '丙氨酸氨基转移酶', unit: 'U/L', textType: 'number' },
        { key: 'alb', type: 'textQuestion', title: '白蛋白', unit: 'g/L', textType: 'number' },
        { key: 'weight', type: 'textQuestion', title: '体重', unit: 'kg', textType: 'number' },
        { key: 'bp', type: 'textQuestion', title: '血压', textType: 'number' },
      ],
    },
  ],
};

async function cdr(key: string, patient: number, table: string, row: object) {
  const r = await restCall('POST', `cdr/patients/${patient}/records`, key, { table, row });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

test("a new record prefills from the patient's clinical data, keeps what was typed, and says what it could not place", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  const run = runId();
  const key = await apiLogin(account('admin'));
  const mrn = `PF${run}`;
  const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
    mrn,
    name: `预填患者${run}`,
    gender: 2,
    birthDate: '1968-04-02',
  });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const patient = p.body.data.id;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  for (const [itemCode, itemName, valueNum, unit] of [
    ['ALT', '丙氨酸氨基转移酶', 88, 'U/L'],
    ['ALB', '白蛋白', 3.2, 'g/dL'],
  ] as const)
    await cdr(key, patient, 'labResults', {
      itemCode,
      itemName,
      valueNum,
      unit,
      collectedAt: `${day}T08:00:00+08:00`,
    });
  for (const [item, value] of [
    ['体重', '58'],
    ['血压', '150/90'],
  ])
    await cdr(key, patient, 'physicalExams', {
      item,
      value,
      unit: item === '体重' ? 'kg' : 'mmHg',
      recordedAt: `${day}T09:00:00+08:00`,
    });
  await cdr(key, patient, 'diagnoses', {
    icd10: 'K74.6',
    name: '肝硬化',
    diagnosedAt: `${day}T10:00:00+08:00`,
  });
  const made = await restCall<{ id: number }>('POST', 'crf/forms', key, {
    name: `入院预填 ${run}`,
    definition: ADMISSION,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const formId = made.body.data.id;
  expect((await restCall('POST', `crf/forms/${formId}/publish`, key, { note: '首版' })).status).toBe(200);

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}&record=new`);
  // Without a patient there is nothing to read: only the XML prefill is offered.
  await expect(page.getByRole('button', { name: '从病历 XML 预填' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('crf-prefill-cdr')).toHaveCount(0);
  await pickPatient(page, mrn);
  // Typed before the prefill: kept.
  await page.locator('#crf-weight').fill('57.5');
  await page.getByTestId('crf-prefill-cdr').click();
  const review = page.getByTestId('crf-prefill-review');
  await expect(review).toBeVisible();
  await expect(review).toContainText('可填入 3 项');
  const row = (title: string) => review.locator('tr', { hasText: title });
  await expect(row('性别')).toContainText('女');
  await expect(row('丙氨酸氨基转移酶')).toContainText('88');
  await expect(row('丙氨酸氨基转移酶')).toContainText('检验结果 · 丙氨酸氨基转移酶');
  await expect(row('丙氨酸氨基转移酶')).toContainText(`${day} 08:00`);
  await expect(row('性别')).toContainText('患者 · 性别');
  // Converted from g/dL, the source value beside it.
  await expect(row('白蛋白').locator('td').nth(1)).toHaveText('32');
  await expect(row('白蛋白')).toContainText('白蛋白：3.2 g/dL');
  await expect(row('体重')).toContainText('已有答案，保留');
  // A blood pressure is not one number: said in words, with the item's title.
  await expect(review).toContainText('“150/90”不是数字，「血压」需要数字');
  await expect(review).toContainText('另有');
  await expect(review).not.toContainText('noItem');
  await screenshot(page, 'crf-prefill-cdr-review-zh');
  await page.getByRole('button', { name: '接受预填' }).click();
  await expect(review).toBeHidden();
  await expect(page.locator('#crf-alt')).toHaveValue('88');
  await expect(page.locator('#crf-alb')).toHaveValue('32');
  await expect(page.locator('#crf-weight')).toHaveValue('57.5');
  await screenshot(page, 'crf-prefill-cdr-filled-zh');

  // In English, the same review reads in English.
  await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
  await page.reload();
  await pickPatient(page, mrn);
  await page.getByTestId('crf-prefill-cdr').click();
  await expect(review).toContainText('"150/90" is not a number, which "血压" needs');
  await expect(review).toContainText('Will be filled');
  await expect(row('丙氨酸氨基转移酶')).toContainText('Lab results · 丙氨酸氨基转移酶');
  await expect(row('性别')).toContainText('Patients · Gender');
  await expect(row('白蛋白')).toContainText('白蛋白: 3.2 g/dL');
  await expect(review).toContainText('Physical examinations · 血压 (150/90 mmHg) — ');
  await screenshot(page, 'crf-prefill-cdr-review-en');
});
