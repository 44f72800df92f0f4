import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/** The Synthea FHIR R4 bundles shipped with the repository (fixtures/SOURCES.md). */
const SYNTHEA = fileURLToPath(new URL('../../fixtures/synthea/', import.meta.url));

async function waitJob(key: string, id: number) {
  for (let i = 0; i < 240; i++) {
    const r = await restCall<{ status: string }>('GET', `jobs/${id}`, key);
    if (r.body.data.status === 'succeeded') return;
    if (r.body.data.status === 'failed') throw new Error(`job ${id} failed`);
    await new Promise((res) => setTimeout(res, 500));
  }
  throw new Error(`job ${id} did not finish`);
}

test.describe.configure({ timeout: 180_000 });

test('imports a Synthea FHIR bundle from the import records page', async ({ page }) => {
  const file = readdirSync(SYNTHEA)
    .filter((f) => f.endsWith('.json'))
    .sort()[0]!;
  await signInToWorkbench(page, account('admin'));
  await page.goto('/data-lake/data-resource-maintenance');
  await page.locator('input[type=file]').first().setInputFiles(path.join(SYNTHEA, file));
  await expect(page.locator('.ant-drawer')).toContainText(file);
  await expect(page.locator('.ant-drawer')).toContainText('成功', { timeout: 60_000 });
  // Counts per table in words (issue 16), never the table's code.
  await expect(page.locator('.ant-drawer')).toContainText('就诊: 12');
  await screenshot(page, 'clinical-import-fhir');
  await page.locator('.ant-drawer-close').click();

  // The imported patient opens in the personal view.
  await page.goto('/personalInformation/inHospitalView');
  await page.getByPlaceholder('姓名 / 病案号 / 身份证号').fill('Kermit');
  await page.getByPlaceholder('姓名 / 病案号 / 身份证号').press('Enter');
  await page.getByRole('button', { name: 'Kermit Trantow' }).click();
  await expect(page.getByTestId('patient-name')).toHaveText('Kermit Trantow');
  await page.getByTestId('tab-checkout').click();
  await expect(page.getByTestId('lab-trend')).toBeVisible();
  await screenshot(page, 'clinical-synthea-labs');
});

test('opens a generated patient, draws the vital-sign chart with events and ventilator marks, walks every tab and finds a note by a two-character term', async ({
  page,
}) => {
  const key = await apiLogin(account('admin'));
  // The first attempt's seed is fixed (same data every run); a retry or a repeat generates patients
  // of its own (their record numbers start S<seed>-).
  const seed = 2026 + 100 * test.info().retry + test.info().repeatEachIndex;
  const job = await restCall<{ id: number }>('POST', 'cdr/synthetic', key, { patients: 40, seed });
  expect(job.status).toBe(200);
  await waitJob(key, job.body.data.id);

  // This attempt's generated patients (others may be generating theirs at the same time).
  type CdrPage<T> = { items: T[]; nextCursor: string | null };
  async function* rows<T>(table: string) {
    for (let cursor = ''; ; ) {
      const r = await restCall<CdrPage<T>>(
        'GET',
        `cdr/rows?table=${table}&source=synthetic&size=200${cursor}`,
        key,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      yield* r.body.data.items;
      if (!r.body.data.nextCursor) return;
      cursor = `&cursor=${r.body.data.nextCursor}`;
    }
  }
  const mine = new Set<number>();
  for await (const p of rows<{ id: number; mrn: string }>('patients')) {
    if (p.mrn.startsWith(`S${seed}-`)) mine.add(p.id);
    if (mine.size === 40) break;
  }
  expect(mine.size).toBe(40);
  // One of them with an operation (liver cancer), in hospital: the richest chart and every tab
  // filled; else one with a visit.
  let pid = 0;
  for (const table of ['operations', 'visits']) {
    for await (const r of rows<{ patientId: number }>(table)) {
      if (!mine.has(r.patientId)) continue;
      pid = r.patientId;
      break;
    }
    if (pid) break;
  }
  expect(pid).toBeGreaterThan(0);
  const vitals = await restCall<{ visit: { id: number; admitAt: string }; points: unknown[] }>(
    'GET',
    `360/vitalsigns/${pid}`,
    key,
  );
  const visit = vitals.body.data.visit;
  expect(visit).not.toBeNull();
  const at = (hours: number) => new Date(Date.parse(visit.admitAt) + hours * 3_600_000).toISOString();
  for (const [value, h] of [
    ['开呼吸机', 30],
    ['关呼吸机', 52],
    ['患者外出请假回家处理私事预计明日上午八点前返回病房', 60],
  ] as const) {
    const r = await restCall('POST', `cdr/patients/${pid}/records`, key, {
      table: 'vitalSigns',
      row: { visitId: visit.id, itemName: '事件', value, recordDt: at(h) },
    });
    expect(r.status).toBe(200);
  }
  await restCall('POST', `cdr/patients/${pid}/records`, key, {
    table: 'vitalSigns',
    row: { visitId: visit.id, itemName: '体温', value: '不升', itemUnit: '℃', recordDt: at(42) },
  });

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/personalInformation/inHospitalView?id=${pid}`);
  const chart = page.getByTestId('vital-sign-chart');
  await expect(chart).toBeVisible();
  await expect(chart.locator('circle').first()).toBeVisible();
  await expect(chart.locator('[data-series=temperature] circle').first()).toHaveAttribute('r', '4');
  await expect(chart.locator('[data-mark=ventilator-on]')).toHaveCount(1);
  await expect(chart.locator('[data-mark=ventilator-off]')).toHaveCount(1);
  await expect(chart.locator('[data-mark=not-raised]')).toHaveCount(1);
  // Past 20 characters an event shows its first 17 and '...'.
  await expect(
    chart.locator('[data-mark=event]', { hasText: '患者外出请假回家处理私事预计明日上...' }),
  ).toHaveCount(1);
  await expect(page.getByTestId('patient-age')).toContainText('岁');
  // Wheel zoom: 1.05 per step in.
  await chart.hover();
  await page.mouse.wheel(0, -100);
  await expect(page.getByText('105%')).toBeVisible();
  await page.mouse.wheel(0, 100);
  await expect(page.getByText('100%')).toBeVisible();
  await chart.scrollIntoViewIfNeeded();
  await screenshot(page, 'clinical-vital-sign-chart');
  await chart.screenshot({
    path: path.join(
      path.dirname(new URL(import.meta.url).pathname),
      '..',
      '.screens',
      'clinical-vital-sign-chart-only.png',
    ),
  });

  // Every tab of the personal view opens and shows its data.
  const tabs: Array<[string, string, boolean]> = [
    ['seeADoctor', 'visits-table', true],
    ['diagnose', 'diagnoses-table', true],
    ['allergy', 'allergies-table', false],
    ['doctorsAdvice', 'orders-table', true],
    ['checkout', 'labs-table', true],
    ['examine', 'exams-table', true],
    ['surgery', 'operations-table', true],
    ['physicalExamination', 'physical-table', true],
  ];
  for (const [tab, table, filled] of tabs) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(table)).toBeVisible();
    if (filled) await expect(page.getByTestId(table).locator('tr.ant-table-row').first()).toBeVisible();
  }
  await page.getByTestId('tab-checkout').click();
  await expect(page.getByTestId('lab-trend').locator('canvas')).toBeVisible();
  await screenshot(page, 'clinical-labs-tab');
  await page.getByTestId('tab-patientForm').click();

  // Full-text retrieval: a two-character Chinese term, matches marked.
  await page.goto('/data-lake/full-text-retrieval');
  await page.getByTestId('fts-text').fill('黄染');
  await page.getByTestId('fts-submit').click();
  const results = page.getByTestId('fts-results');
  await expect(results.locator('mark').first()).toHaveText('黄染');
  // The total is shown (issue 16), and nothing to load more under no result.
  await expect(page.getByTestId('fts-total')).toHaveText(/^共 \d+ 位患者$/);
  await screenshot(page, 'clinical-full-text');
  await page.getByTestId('fts-text').fill('水肝');
  await page.getByTestId('fts-submit').click();
  await expect(page.getByTestId('fts-total')).toHaveText('共 0 位患者');
  await expect(results.getByRole('button', { name: '加载更多' })).toHaveCount(0);

  // The CDR browser and the overview read the same repository.
  await page.goto('/data-lake/cdr-browser');
  await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
  await page.goto('/data-lake/overviews');
  await expect(page.locator('.ant-statistic').first()).toBeVisible();
  await expect(page.locator('.ant-statistic-content-value').first()).not.toHaveText('0');
  await screenshot(page, 'clinical-overview');
});

test('a patient whose name holds markup prints the vital-sign chart with the name as text (issue 15 item 6)', async ({
  page,
}) => {
  // Closes the print document's <title> and adds an image and a script, as the old string HTML let it.
  const run = runId();
  const NAME = `</title><img src=x onerror=window.__xss=1>张<script>window.__xss=2</script>${run}`;
  const key = await apiLogin(account('admin'));
  const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
    mrn: `XSS-PRINT-${run}`,
    name: NAME,
    gender: 1,
    birthDate: '1962-04-18',
  });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const pid = p.body.data.id;
  const add = (table: string, row: object) =>
    restCall<{ id: number }>('POST', `cdr/patients/${pid}/records`, key, { table, row });
  const visit = await add('visits', {
    kind: 'inpatient',
    department: '心内科',
    admitAt: '2025-03-02T08:00:00+08:00',
    dischargeAt: '2025-03-05T10:00:00+08:00',
  });
  expect(visit.status).toBe(200);
  for (const [h, temp, pulse] of [
    [2, '37.2', '82'],
    [6, '38.1', '96'],
    [10, '37.6', '88'],
    [26, '36.9', '78'],
  ] as const) {
    const at = new Date(Date.parse('2025-03-02T08:00:00+08:00') + h * 3_600_000).toISOString();
    for (const [itemName, value, itemUnit] of [
      ['体温', temp, '℃'],
      ['脉搏', pulse, '次/分'],
    ])
      expect(
        (await add('vitalSigns', { visitId: visit.body.data.id, itemName, value, itemUnit, recordDt: at }))
          .status,
      ).toBe(200);
  }

  await signInToWorkbench(page, account('admin'));
  await page.goto(`/personalInformation/inHospitalView?id=${pid}`);
  await expect(page.getByTestId('patient-name')).toHaveText(NAME);
  const chart = page.getByTestId('vital-sign-chart');
  await expect(chart.locator('[data-series=temperature] circle').first()).toBeVisible();

  for (const [language, title, print] of [
    ['', '体温单', '打印'],
    ['English', 'Vital-sign chart', 'Print'],
  ] as const) {
    if (language) {
      await page.getByTestId('language-switch').click();
      await page.getByRole('menuitem', { name: language }).click();
      await expect(page.getByRole('button', { name: print })).toBeVisible();
    }
    const opened = page.waitForEvent('popup');
    await page.getByRole('button', { name: print }).click();
    const doc = await opened;
    // Nothing of the name became an element; it is the print document's title and heading, as text.
    await expect(doc.locator('body > svg [data-series=temperature] circle')).toHaveCount(4);
    await expect(doc.locator('img')).toHaveCount(0);
    await expect(doc.locator('script')).toHaveCount(0);
    expect(await doc.title()).toBe(`${NAME} ${title}`);
    await expect(doc.getByTestId('print-title')).toHaveText(`${NAME} ${title}`);
    expect(await doc.locator('body > *').count()).toBe(2);
    expect(await doc.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    await doc.setViewportSize({ width: 1100, height: 700 });
    await screenshot(doc, `clinical-vital-sign-print-${language ? 'en' : 'zh'}`);
    await doc.close();
  }
  await expect(page.locator('img[src=x]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await screenshot(page, 'clinical-vital-sign-markup-name-en');
});
