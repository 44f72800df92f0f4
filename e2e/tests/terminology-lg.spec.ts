import { apiLogin, expect, restCall, runId, screenshot, test } from '../fixtures';

/**
 * The terminology view through a free-access link (issue 19, spec 000 section 2): an
 * administrator issues a `term` link; whoever opens it sees only the terminology browser (no
 * menu, no account), finds 霍乱 by its pinyin initials and walks up to its block; normal pages
 * and writes are refused, on the screen and by the server.
 */
test('a free-access /lg link browses a concept, read-only and without a menu', async ({ page, ownAdmin }) => {
  const adminKey = await apiLogin(ownAdmin);
  const issued = await restCall<{ path: string }>('POST', 'free_access', adminKey, {
    scopeKind: 'term',
    objectId: 'view',
    hours: 1,
    label: 'e2e terminology',
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const link = issued.body.data.path;
  expect(link).toMatch(/^\/lg\/term\/view.*#key=/);

  // The hospital's data carries 霍乱: a patient with the code, and an OMOP map of it.
  const patient = await restCall<{ id: number }>('POST', 'cdr/patients', adminKey, {
    mrn: `TERM${runId()}`,
    name: `术语患者${runId()}`,
    gender: 1,
  });
  expect(patient.status, JSON.stringify(patient.body)).toBe(200);
  const dx = await restCall('POST', `cdr/patients/${patient.body.data.id}/records`, adminKey, {
    table: 'diagnoses',
    row: { icd10: 'A00', name: '霍乱', diagnosedAt: '2024-05-01T08:00:00+08:00' },
  });
  expect(dx.status, JSON.stringify(dx.body)).toBe(200);
  const mapped = await restCall('POST', 'omop/mappings', adminKey, {
    kind: 'condition',
    sourceCode: 'A00',
    conceptId: 4004785,
    conceptName: 'Cholera',
  });
  // An earlier run of the story may have mapped it already in this shared app.
  expect([200, 409], JSON.stringify(mapped.body)).toContain(mapped.status);
  const use = await restCall<{ usage: { recordedRows: number; recordedPatients: number } }>(
    'GET',
    'terminology/concept?system=ICD10&code=A00',
    adminKey,
  );
  expect(use.body.data.usage.recordedRows).toBeGreaterThanOrEqual(1);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(link);
  await expect(page).toHaveURL(/\/lg\/term\/view$/);
  await expect(page.getByTestId('free-layout-term')).toBeVisible();
  await expect(page.locator('.ant-menu')).toHaveCount(0);
  // The first read of the store may load the shipped lists: allow for it.
  await expect(page.getByTestId('system-ICD10')).toBeVisible({ timeout: 60_000 });
  await page.getByPlaceholder(/输入中文词、拼音首字母或编码/).fill('hl');
  const hits = page.getByTestId('concept-hits');
  await hits.getByText('霍乱', { exact: true }).click();
  const detail = page.getByTestId('concept-detail');
  await expect(detail.getByRole('heading')).toContainText('A00 霍乱');
  await expect(detail.locator('.ant-breadcrumb')).toContainText('A00-A09');
  // Read-only: no button that adds or changes a code.
  await expect(detail.getByRole('button', { name: /新增|添加|编辑|删除/ })).toHaveCount(0);
  // Its mappings and its use in this hospital's data, with counts.
  await expect(detail.getByTestId('concept-mappings')).toContainText('等价概念');
  await expect(detail.getByTestId('concept-mappings')).toContainText('OMOP');
  const { recordedRows, recordedPatients } = use.body.data.usage;
  await expect(detail.getByTestId('concept-usage')).toContainText(
    `${recordedRows} 条记录 · ${recordedPatients} 名患者`,
  );
  await detail.getByTestId('concept-usage').scrollIntoViewIfNeeded();
  await screenshot(page, 'terminology-lg-concept');

  // The server holds the scope: the link reads the store and the semantic service, nothing else.
  const key = await page.evaluate(
    () => JSON.parse(localStorage.getItem('fygo__ACCESS_TOKEN') ?? 'null') as string,
  );
  const semantic = await restCall<{ concepts: Array<{ code: string; negated: boolean }> }>(
    'POST',
    'terminology/semantic',
    key,
    { text: '否认霍乱' },
  );
  expect(semantic.status).toBe(200);
  expect(semantic.body.data.concepts[0]).toMatchObject({ code: 'A00', negated: true });
  expect(
    (await restCall('POST', 'terminology/local-codes/disease', key, { code: 'Z1', displayZh: '甲' })).status,
  ).toBe(403);
  expect((await restCall('GET', 'current_user', key)).status).toBe(403);

  await page.goto('/dashboard/workplace');
  await expect(page.getByText('抱歉，你无权访问该页面')).toBeVisible();
});
