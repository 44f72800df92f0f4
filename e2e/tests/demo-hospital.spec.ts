import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { screenshot } from '../fixtures';
import { startServer, stopServer } from '../global-setup';

/**
 * The demo hospital as a new user meets it: a server of its own started on an empty data
 * directory with DEMO_DATA (the shared E2E server keeps the demo off, DEMO_PATIENTS=0), the demo
 * administrator signs in while the demo is made, and walks the workbench, the 360 view, the CRF
 * list, the disease library and the research subject, in Chinese and English, at 1440 and 375 px.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Enough that the demo is still being made when the administrator first reaches the workbench.
const PATIENTS = 600;

test.describe.configure({ mode: 'serial', timeout: 600_000 });

let server: ChildProcess;
let dataDir: string;
let base: string;
let admin: { username: string; password: string };
let startedAt: number;

async function api<T>(url: string, key?: string): Promise<T> {
  const res = await fetch(`${base}/api/v0.1/${url}`, { headers: key ? { WeAppAuthorization: key } : {} });
  const body = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function login() {
  const res = await fetch(`${base}/api/merchants/merchantslogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      method: 'Login',
      params: [{ UserName: admin.username, Password: admin.password }],
    }),
  });
  const body = (await res.json()) as { result: { User: { SessionKey: string } } };
  return body.result.User.SessionKey;
}

test.beforeAll(async () => {
  // A first start migrates an empty embedded database: a minute or more on a loaded machine.
  test.setTimeout(400_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'crdp-e2e-demo-'));
  const webDist = path.join(dataDir, 'web');
  // E2E_WEB_DIST: a web build of one's own while others rebuild apps/web/dist.
  cpSync(process.env.E2E_WEB_DIST ?? path.join(root, 'apps/web/dist'), webDist, { recursive: true });
  startedAt = Date.now();
  ({ base, server } = await startServer(
    {
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      DEMO_PATIENTS: String(PATIENTS),
      DEMO_PASSWORD: 'E2e#Demo2024',
      WEB_DIST: webDist,
      DATABASE_URL: '',
    },
    300_000,
  ));
  console.log(`demo hospital: first answer ${((Date.now() - startedAt) / 1000).toFixed(1)} s after start`);
  const accounts = JSON.parse(readFileSync(path.join(dataDir, 'demo-accounts.json'), 'utf8')) as {
    users: Array<{ username: string; password: string; role: string }>;
  };
  admin = accounts.users.find((u) => u.role === 'admin')!;
});

test.afterAll(async () => {
  if (server) await stopServer(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page) {
  await page.goto(`${base}/user/login`);
  await page.getByPlaceholder('用户名').fill(admin.username);
  await page.getByPlaceholder('密码').fill(admin.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/workplace/, { timeout: 60_000 });
  await expect(page.getByTestId('greeting')).toBeVisible({ timeout: 60_000 });
}

test('the first start answers at once and shows the demo being prepared, then ready', async ({ page }) => {
  const key = await login();
  const first = await api<{ state: string; progress: number }>('demo/status', key);
  expect(['preparing', 'ready']).toContain(first.state);
  await signIn(page);
  const now = await api<{ state: string; progress: number }>('demo/status', key);
  if (now.state === 'preparing') {
    await expect(page.getByTestId('demo-banner')).toContainText(/示范数据生成中 … \d+%/);
    await screenshot(page, 'demo-0-preparing-1440-zh');
  } else console.log('demo hospital: ready before the workbench was reached (no banner to see)');
  // The banner goes when the demo is ready; the workbench then shows the saved charts.
  await expect(page.getByTestId('demo-banner')).toBeHidden({ timeout: 300_000 });
  const seeded = (Date.now() - startedAt) / 1000;
  console.log(`demo hospital: ${PATIENTS} patients and every area ready ${seeded.toFixed(1)} s after start`);
  expect((await api<{ state: string }>('demo/status', key)).state).toBe('ready');
  await page.reload();
  const charts = page.getByTestId('workbench-saved-charts');
  await expect(charts).toContainText('各年龄段患者数', { timeout: 90_000 });
  await expect(charts).toContainText('诊断构成');
  await charts.scrollIntoViewIfNeeded();
  await screenshot(page, 'demo-0-saved-charts-1440-zh');
});

const SIZES = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
];
const LANGS = [
  {
    locale: 'zh-CN',
    words: {
      crf: '慢性乙型肝炎随访 CRF',
      locked: /锁定|已锁定/,
      library: '慢性乙型肝炎专病库',
      subject: '数据准备中',
      t0Ready: '已计算',
    },
  },
  {
    locale: 'en-US',
    words: {
      crf: '慢性乙型肝炎随访 CRF',
      locked: /Locked/i,
      library: '慢性乙型肝炎专病库',
      subject: /Data preparing|Preparing data/i,
      t0Ready: 'Calculated',
    },
  },
] as const;

for (const size of SIZES)
  for (const lang of LANGS)
    test(`the demo in every built area at ${size.width} px, ${lang.locale}`, async ({ page }) => {
      await page.setViewportSize(size);
      await signIn(page);
      if (lang.locale === 'en-US') {
        await page.evaluate(() => localStorage.setItem('fygo__LANGUAGE', JSON.stringify('en-US')));
        await page.reload();
      }
      const tag = `${size.width}-${lang.locale === 'zh-CN' ? 'zh' : 'en'}`;
      const key = await login();

      // Workbench: the hospital's figures and saved charts.
      await expect(page.getByTestId('workbench-saved-charts')).toBeVisible({ timeout: 90_000 });
      await expect(page.getByTestId('stat-patients')).toContainText(String(PATIENTS), { timeout: 90_000 });
      await screenshot(page, `demo-1-workbench-${tag}`);
      await page.getByTestId('workbench-saved-charts').scrollIntoViewIfNeeded();
      await screenshot(page, `demo-1-workbench-charts-${tag}`);

      // The 360 view of a hepatitis B patient of the CRF: visits, diagnoses and Chinese notes.
      const forms = await api<{ items: Array<{ id: number; name: string }> }>('crf/forms?size=100', key);
      const form = forms.items.find((f) => f.name === lang.words.crf)!;
      const records = await api<{ items: Array<{ patientId: number | null; status: string }> }>(
        `crf/forms/${form.id}/records?size=100`,
        key,
      );
      expect(new Set(records.items.map((r) => r.status))).toEqual(
        new Set(['draft', 'submitted', 'verified', 'locked']),
      );
      const patientId = records.items[0]!.patientId!;
      await page.goto(`${base}/personalInformation/inHospitalView?id=${patientId}`);
      await expect(page.getByText('慢性乙型病毒性肝炎').first()).toBeVisible({ timeout: 90_000 });
      await screenshot(page, `demo-2-360-${tag}`);

      // The CRF's records, in every status, for patients.
      await page.goto(`${base}/crf-management/hepatopathyPoc?formId=${form.id}`);
      await expect(page.getByText(lang.words.locked).first()).toBeVisible({ timeout: 90_000 });
      await screenshot(page, `demo-3-crf-records-${tag}`);

      // The disease library's pushed patients.
      const libraries = await api<{ items: Array<{ id: number; name: string }> }>(
        'diseaselibrary/libraries',
        key,
      );
      const library = libraries.items.find((l) => l.name === lang.words.library)!;
      await page.goto(`${base}/zhuanbing-library/patients-list?libraryId=${library.id}`);
      await expect(page.getByText(lang.words.library).first()).toBeVisible({ timeout: 90_000 });
      // The pushed patients themselves, not only the page around them.
      await expect(page.locator('.ant-table-row, .ant-list-item').first()).toBeVisible({ timeout: 90_000 });
      await screenshot(page, `demo-4-library-${tag}`);

      // The research subject, in data preparation.
      await page.goto(`${base}/scientific-research-subject/subject-list`);
      // At 375 px a list cell cuts the name (spec truncation, 12 full-width characters on a phone).
      await expect(page.getByText(/^慢性乙型肝炎抗病毒治疗队/).first()).toBeVisible({ timeout: 90_000 });
      await expect(page.getByText(lang.words.subject).first()).toBeVisible();
      await screenshot(page, `demo-5-research-${tag}`);

      // The hospital's structure, its departments with the visits recorded under them.
      await page.goto(`${base}/data-lake/hospital-info-maintenance`);
      const gi = page.getByRole('row', { name: /消化内科 / }).first();
      await expect(gi).toBeVisible({ timeout: 90_000 });
      await expect(gi).not.toContainText(/\s0\s/);
      await screenshot(page, `demo-6-hospital-${tag}`);

      // The cohort's T0, calculated.
      await page.goto(`${base}/data-lake/t0-event`);
      await expect(page.getByRole('row', { name: /首次诊断慢性乙型肝炎/ })).toContainText(
        lang.words.t0Ready,
        {
          timeout: 90_000,
        },
      );
      await screenshot(page, `demo-7-t0-${tag}`);
    });
