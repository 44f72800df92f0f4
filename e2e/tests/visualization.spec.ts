import type { Page } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * Issue 10: from real clinical data in the app, build and save one chart of each family in the
 * builder (bar, line, pie, scatter, heatmap, sankey, map, venn, word cloud), check that each
 * canvas is drawn, then see them again among the saved charts and on the workbench.
 */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
function nationalId(province: string, birth: string, seq: number) {
  const first17 = `${province}0101${birth.replaceAll('-', '')}${String(seq).padStart(3, '0')}`;
  const sum = [...first17].reduce((s, d, i) => s + Number(d) * WEIGHTS[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

const PROVINCES = ['11', '31', '44', '51', '33', '37', '42', '61', '65', '23'];
const DIAGNOSES = [
  ['I10', '原发性高血压'],
  ['E11.9', '2型糖尿病'],
  ['K74.6', '肝硬化'],
  ['J18.9', '肺炎'],
  ['K76.0', '脂肪肝'],
  ['I25.1', '冠状动脉粥样硬化性心脏病'],
];
const DEPARTMENTS = ['心内科', '内分泌科', '消化内科', '呼吸内科'];

/** Sixty patients with diagnoses, visits and lab results of this run, made through the CDR API. */
async function seedClinicalData(key: string, run: string) {
  for (let i = 0; i < 60; i++) {
    const gender = i % 2 === 0 ? 1 : 2;
    const year = 1940 + ((i * 7) % 75);
    const birth = `${year}-0${1 + (i % 9)}-1${i % 10}`;
    const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
      mrn: `VIS${run}-${i}`,
      name: `可视化患者${i}`,
      gender,
      birthDate: birth,
      nationalId: nationalId(
        PROVINCES[i % PROVINCES.length]!,
        birth,
        gender === 1 ? 11 + 2 * (i % 40) : 12 + 2 * (i % 40),
      ),
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const id = p.body.data.id;
    const month = `2024-${String(1 + (i % 6)).padStart(2, '0')}`;
    const add = (table: string, row: object) =>
      restCall('POST', `cdr/patients/${id}/records`, key, { table, row });
    await add('visits', {
      kind: i % 3 === 0 ? 'inpatient' : 'outpatient',
      department: DEPARTMENTS[i % DEPARTMENTS.length],
      admitAt: `${month}-05T08:00:00+08:00`,
    });
    for (const [k, [icd10, name]] of DIAGNOSES.entries()) {
      if ((i + k) % (k + 2) !== 0) continue;
      await add('diagnoses', { icd10, name, diagnosedAt: `${month}-06T09:00:00+08:00` });
    }
    await add('labResults', {
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: 20 + ((i * 13) % 60),
      unit: 'U/L',
      collectedAt: `${month}-07T07:30:00+08:00`,
    });
  }
}

/** Opens an antd select by its test id, types to filter and takes the first match. */
async function pick(page: Page, testId: string, ...labels: string[]) {
  for (const label of labels) {
    await page.getByTestId(testId).click();
    await page.keyboard.type(label);
    // Only the open dropdown's enabled options: a closed one (maxCount reached) stays in the DOM.
    await page
      .locator('.ant-select-item-option:not(.ant-select-item-option-disabled):visible')
      .filter({ hasText: label })
      .first()
      .click();
  }
  await page.keyboard.press('Escape');
}

/** How many pixels of the chart's canvases (ECharts may draw in layers) are painted, not white. */
async function paintedPixels(page: Page, testId: string) {
  return page
    .getByTestId(testId)
    .locator('canvas')
    .evaluateAll((canvases: HTMLCanvasElement[]) => {
      let n = 0;
      for (const c of canvases) {
        const ctx = c.getContext('2d');
        if (!ctx) continue;
        const { data } = ctx.getImageData(0, 0, c.width, c.height);
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3]! > 0 && !(data[i]! > 245 && data[i + 1]! > 245 && data[i + 2]! > 245)) n++;
        }
      }
      return n;
    });
}

interface Family {
  name: string;
  dataset: string;
  subtype: string;
  channels: Array<[string, ...string[]]>;
  shot?: string;
}
const FAMILIES: Family[] = [
  {
    name: '各科室就诊人次',
    dataset: '就诊',
    subtype: '条形图',
    channels: [
      ['channel-y', '科室'],
      ['channel-x', '就诊人次'],
    ],
  },
  {
    name: 'ALT 月均值',
    dataset: '检验结果',
    subtype: '折线图',
    channels: [
      ['channel-x', '采集月份'],
      ['channel-y', '平均值'],
    ],
  },
  {
    name: '性别构成',
    dataset: '患者',
    subtype: '饼图',
    channels: [
      ['channel-category', '性别'],
      ['channel-value', '患者数'],
    ],
  },
  {
    name: '年龄与人数',
    dataset: '患者',
    subtype: '散点图',
    channels: [
      ['channel-x', '年龄（岁）'],
      ['channel-y', '患者数'],
    ],
  },
  {
    name: '科室月度热力',
    dataset: '就诊',
    subtype: '热力图',
    channels: [
      ['channel-x', '就诊月份'],
      ['channel-y', '科室'],
      ['channel-intensity', '就诊人次'],
    ],
  },
  {
    name: '性别到年龄段',
    dataset: '患者',
    subtype: '桑基图',
    channels: [
      ['channel-xs', '性别', '年龄段'],
      ['channel-value', '患者数'],
    ],
    shot: 'vis-chart-sankey',
  },
  {
    name: '籍贯省份',
    dataset: '患者',
    subtype: '地图',
    channels: [
      ['channel-category', '省份'],
      ['channel-value', '患者数'],
    ],
    shot: 'vis-chart-map',
  },
  {
    name: '慢病共病',
    dataset: '患者',
    subtype: '韦恩图',
    channels: [['channel-sets', '高血压', '糖尿病', '肝病']],
  },
  {
    name: '诊断词云',
    dataset: '诊断',
    subtype: '词云',
    channels: [
      ['channel-text', '诊断名称'],
      ['channel-size', '诊断数'],
    ],
    shot: 'vis-chart-word-cloud',
  },
];

test.describe
  .serial('visualization', () => {
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      await seedClinicalData(await apiLogin(account('admin')), runId());
    });

    test('builds, saves and draws one chart of each family from the clinical data', async ({ page }) => {
      test.setTimeout(360_000);
      // Names of this attempt: a retry must not find the first attempt's charts twice.
      const run = runId();
      await signInToWorkbench(page, account('admin'));
      for (const f of FAMILIES) {
        await page.goto('/visualization/chart');
        await pick(page, 'dataset-select', f.dataset);
        await pick(page, 'subtype-select', f.subtype);
        // Before any field: the chart says what it misses instead of drawing.
        await expect(page.getByTestId('not-a-chart')).toBeVisible();
        for (const [testId, ...labels] of f.channels) await pick(page, testId, ...labels);
        await page.getByTestId('chart-title').fill(f.name);
        await expect(page.getByTestId('chart-view').locator('canvas').first()).toBeVisible();
        await expect.poll(() => paintedPixels(page, 'chart-view'), { message: f.name }).toBeGreaterThan(500);
        await page.getByTestId('chart-name').fill(`E2E ${f.name} ${run}`);
        await page.getByTestId('save-chart').click();
        await expect(page).toHaveURL(/[?&]id=\d+/);
        if (f.shot) {
          await page.waitForTimeout(800);
          await screenshot(page, f.shot);
        }
      }
      // Every chart is saved and drawn again from the database among the saved charts.
      await page.goto('/visualization/overviews');
      for (const f of FAMILIES) await expect(page.getByText(`E2E ${f.name} ${run}`)).toBeVisible();
      const views = page.locator('[data-testid^="chart-view-"] canvas');
      await expect(views.first()).toBeVisible();
      expect(await views.count()).toBeGreaterThanOrEqual(FAMILIES.length);
    });

    test('a saved chart whose labels hold markup shows them as text in the tooltip (issue 15 item 6)', async ({
      page,
    }) => {
      const run = runId();
      // A department (a data value, the point's label) and a label override, each an HTML payload.
      const DEPT = `<img src=x onerror=window.__xss=1>科${run}`;
      const MEASURE = '"><svg onload=window.__xss=2>人次';
      const key = await apiLogin(account('admin'));
      const p = await restCall<{ id: number }>('POST', 'cdr/patients', key, {
        mrn: `XSS-VIS-${run}`,
        name: `可视化转义${run}`,
        gender: 2,
        birthDate: '1970-06-01',
      });
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      for (const day of ['05', '12', '19']) {
        const v = await restCall('POST', `cdr/patients/${p.body.data.id}/records`, key, {
          table: 'visits',
          row: { kind: 'outpatient', department: DEPT, admitAt: `2024-04-${day}T08:00:00+08:00` },
        });
        expect(v.status).toBe(200);
      }
      const saved = await restCall<{ id: number }>('POST', 'visualization/charts', key, {
        name: `E2E 转义 ${run}`,
        query: {
          dataset: 'visits',
          dimensions: ['department'],
          measures: ['count'],
          filters: [{ field: 'department', op: 'eq', value: DEPT }],
        },
        spec: {
          subtype: 'scatter-plot',
          channels: { y: [{ field: 'count', labelOverride: MEASURE }], label: [{ field: 'department' }] },
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = saved.body.data.id;

      await signInToWorkbench(page, account('admin'));
      await page.goto('/visualization/overviews');
      const view = page.getByTestId(`chart-view-${id}`);
      await view.scrollIntoViewIfNeeded();
      await expect(view.locator('canvas').first()).toBeVisible();
      await expect.poll(() => paintedPixels(page, `chart-view-${id}`)).toBeGreaterThan(100);

      for (const language of ['', 'English']) {
        if (language) {
          await page.getByTestId('language-switch').click();
          await page.getByRole('menuitem', { name: language }).click();
          await view.scrollIntoViewIfNeeded();
          await expect.poll(() => paintedPixels(page, `chart-view-${id}`)).toBeGreaterThan(100);
        }
        // The one point: the centre of the coloured pixels (axes and labels are grey).
        // Polled: after the language switch the chart redraws (with its animation) and the
        // canvas may be blank for a moment.
        const findPoint = () =>
          view
            .locator('canvas')
            .first()
            .evaluate((c: HTMLCanvasElement) => {
              const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
              let sx = 0;
              let sy = 0;
              let n = 0;
              for (let i = 0; i < data.length; i += 4) {
                const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
                if (a > 200 && Math.max(r, g, b) - Math.min(r, g, b) > 60) {
                  sx += (i / 4) % c.width;
                  sy += Math.floor(i / 4 / c.width);
                  n++;
                }
              }
              const box = c.getBoundingClientRect();
              const k = c.width / box.width;
              return n ? { x: box.left + sx / n / k, y: box.top + sy / n / k } : null;
            });
        await expect.poll(findPoint).not.toBeNull();
        const point = await findPoint();
        await page.mouse.move(point!.x - 20, point!.y - 20);
        await page.mouse.move(point!.x, point!.y, { steps: 4 });
        const tooltip = () =>
          view.evaluate((el) => {
            const tip = Array.from(el.querySelectorAll('div')).find(
              (d) => d.style.zIndex === '9999999' && d.style.display !== 'none' && d.textContent,
            );
            return tip
              ? {
                  text: tip.textContent ?? '',
                  tags: Array.from(tip.querySelectorAll('*')).map((e) => e.tagName),
                }
              : null;
          });
        await expect.poll(async () => (await tooltip())?.text ?? '').toContain(DEPT);
        const tip = (await tooltip())!;
        // Shown as text: the label, then '#: 0', then the measure's label and value.
        expect(tip.text).toBe(`${DEPT}#: 0${MEASURE}: 3`);
        expect(tip.tags.filter((t) => t !== 'BR' && t !== 'DIV' && t !== 'SPAN')).toEqual([]);
        await expect(page.locator('img[src=x]')).toHaveCount(0);
        await expect(page.locator('svg[onload]')).toHaveCount(0);
        expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
        await screenshot(page, `vis-tooltip-markup-${language ? 'en' : 'zh'}`);
      }
    });

    test('the workbench shows the app’s statistics as charts', async ({ page }) => {
      await signInToWorkbench(page, account('admin'));
      await expect(page.getByTestId('chart-gender').locator('canvas').first()).toBeVisible();
      await expect.poll(() => paintedPixels(page, 'chart-gender')).toBeGreaterThan(500);
      await expect(page.getByTestId('chart-visits').locator('canvas').first()).toBeVisible();
      await page.getByTestId('workbench-statistics').scrollIntoViewIfNeeded();
      await page.waitForTimeout(800);
      await screenshot(page, 'vis-workbench');
    });

    test('the self-check page draws the month-bar demo without sign-in', async ({ page }) => {
      await page.goto('/test/home');
      await expect(page.getByTestId('month-bar-chart').locator('canvas').first()).toBeVisible();
      await expect.poll(() => paintedPixels(page, 'month-bar-chart')).toBeGreaterThan(500);
      await page.getByTestId('month-bar-demo').scrollIntoViewIfNeeded();
      await page.waitForTimeout(800);
      await screenshot(page, 'vis-test-home-month-bar');
    });
  });
