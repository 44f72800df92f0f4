import { readFileSync } from 'node:fs';
import { readZip } from '../../apps/server/src/test/unzip';
import {
  apiLogin,
  chooseOption,
  dialog,
  expect,
  okButton,
  patientWithRecords,
  recruitedSubject,
  restCall,
  runId,
  screenshot,
  settled,
  signInToWorkbench,
  switchLanguage,
  test,
} from '../fixtures';

/**
 * Data models (issue 20): a data manager reads the built-in CDISC models, makes the hospital's
 * hepatitis B model from SDTMIG and a disease template from it, groups an indicator, maps a local
 * diagnosis to ICD-10 for MH.MHDECOD, and exports a research subject as SDTM CSV with define.xml.
 * Everything is the story's own: its patients, subject, model codes and terms carry the run id.
 */
test('a data manager makes a hospital model from SDTM and exports a subject as SDTM with define.xml', async ({
  page,
  ownAdmin,
}) => {
  test.setTimeout(240_000);
  const run = runId();
  const key = await apiLogin(ownAdmin);
  const term = `慢乙肝${run}`;
  const patients: number[] = [];
  for (const [i, gender] of [
    [1, 1],
    [2, 2],
  ] as const)
    patients.push(
      await patientWithRecords(
        key,
        { mrn: `DMX${run}${i}`, name: `模型${run}${i}`, gender, birthDate: '1980-03-04' },
        [
          { table: 'diagnoses', row: { name: term, kind: 'main', diagnosedAt: '2024-01-02T08:00:00Z' } },
          {
            table: 'labResults',
            row: {
              itemCode: 'ALT',
              itemName: '丙氨酸氨基转移酶',
              valueNum: 60 + i,
              unit: 'U/L',
              collectedAt: '2024-01-03T08:00:00Z',
            },
          },
          {
            table: 'vitalSigns',
            row: { itemName: '体温', value: '36.6', itemUnit: '℃', recordDt: '2024-01-02T09:00:00Z' },
          },
        ],
      ),
    );
  const sid = await recruitedSubject(key, { name: `SDTM课题${run}` }, patients);
  const formula = await restCall<{ id: number }>('POST', 'formulas', key, {
    name: `BMI${run}`,
    unit: 'kg/m²',
    expression: '体重 / (身高 / 100) ^ 2',
    variables: [
      { name: '体重', source: 'exam', code: '体重' },
      { name: '身高', source: 'exam', code: '身高' },
    ],
  });
  expect(formula.status, JSON.stringify(formula.body)).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  // 1. The CDISC models: SDTMIG with its source, DM.SEX and its codelist; CDASHIG's collection fields.
  await page.goto('/data-model/data-model-cdisc');
  const cdisc = page.getByTestId('data-model-cdisc');
  await expect(cdisc.getByTestId('standard-source')).toContainText('SDTMIG 3.4');
  await expect(cdisc.getByTestId('standard-source')).toContainText('SDTM CT 2022-09-30');
  const dm = cdisc.getByTestId('model-table-DM');
  await expect(dm.getByRole('row', { name: /SEX/ })).toContainText('必需');
  await dm.getByRole('button', { name: 'C66731 · Sex' }).click();
  const drawer = page.getByTestId('codelist-drawer');
  await expect(drawer.getByRole('row', { name: /C16576/ })).toContainText('F');
  await settled(page);
  await screenshot(page, 'data-model-1-cdisc-codelist');
  await page.keyboard.press('Escape');
  await cdisc.getByText('CDASH 实施指南（CDASHIG）').click();
  await cdisc.getByRole('tab', { name: /^AE/ }).click();
  await expect(cdisc.getByTestId('model-table-AE').getByRole('row', { name: /AESTDAT/ })).toContainText(
    'AESTDTC',
  );
  await settled(page);
  await screenshot(page, 'data-model-2-cdash');

  // 2. Model maintenance: the hospital's model from five SDTM domains, for the subject.
  await page.goto('/data-model/model-maintenance');
  const own = page.getByTestId('data-models-hospital');
  await own.getByRole('button', { name: '新增模型' }).click();
  const form = dialog(page);
  await form.getByLabel('模型编码').fill(`HBV${run}`);
  await form.getByLabel('名称', { exact: true }).fill(`乙肝模型${run}`);
  // A multiple select stays open while its options are chosen.
  await form.locator('.ant-select', { has: page.getByLabel('复制的域（不选则全部）') }).click();
  for (const d of ['DM', 'MH', 'LB', 'VS', 'CM'])
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${d} ·`) })
      .click();
  await page.keyboard.press('Escape');
  await chooseOption(
    page,
    form.locator('.ant-select', { has: page.getByLabel('科研课题') }),
    `SDTM课题${run}`,
    `SDTM课题${run}`,
  );
  await settled(page);
  await screenshot(page, 'data-model-3-new-model');
  await okButton(page).click();
  await expect(form).toBeHidden();
  const row = own.getByRole('row', { name: new RegExp(`HBV${run}`) });
  await expect(row).toContainText('SDTMIG 3.4');
  await expect(row).toContainText(`SDTM课题${run}`);
  // Its DM gets a variable of the hospital's own.
  await row.getByRole('button', { name: '编辑' }).click();
  const md = page.getByTestId('data-model-drawer');
  await md.getByTestId('model-table-DM').getByRole('button', { name: '新增变量' }).click();
  const vf = dialog(page).last();
  await vf.getByLabel('变量名').fill('HBVGENO');
  await vf.getByLabel('标签', { exact: true }).fill('HBV Genotype');
  await vf.getByRole('button', { name: /确\s?定/ }).click();
  await expect(md.getByTestId('model-table-DM').getByRole('row', { name: /HBVGENO/ })).toBeVisible();
  await settled(page);
  await screenshot(page, 'data-model-4-maintenance-drawer');
  await md.locator('.ant-drawer-close').click();
  await expect(md).toBeHidden();
  await expect(row).toContainText('201');

  // 3. A disease template made from it.
  await page.goto('/data-model/specialModelManagementTep');
  const tpl = page.getByTestId('data-models-template');
  await tpl.getByRole('button', { name: '新增模板' }).click();
  const tf = dialog(page);
  await tf.getByLabel('模型编码').fill(`HBVT${run}`);
  await tf.getByLabel('名称', { exact: true }).fill(`慢性乙型肝炎专病模型${run}`);
  await tf.getByText('已有模型或模板').click();
  await chooseOption(
    page,
    tf.locator('.ant-select', { has: page.getByLabel('选择模型或模板') }),
    `乙肝模型${run} v1`,
    `乙肝模型${run}`,
  );
  await okButton(page).click();
  await expect(tf).toBeHidden();
  await expect(tpl.getByRole('row', { name: new RegExp(`HBVT${run}`) })).toContainText('SDTMIG 3.4');
  await settled(page);
  await screenshot(page, 'data-model-5-templates');

  // 4. Indicator groups.
  await page.goto('/data-model/indicatorGroups');
  const groups = page.getByTestId('indicator-groups');
  await groups.getByRole('button', { name: '新增指标组' }).click();
  const gf = dialog(page);
  await gf.getByLabel('名称', { exact: true }).fill(`体格指标${run}`);
  await chooseOption(
    page,
    gf.locator('.ant-select', { has: page.getByLabel('关联模型') }),
    `乙肝模型${run} v1`,
    `乙肝模型${run}`,
  );
  await chooseOption(
    page,
    gf.locator('.ant-select', { has: page.getByLabel('指标', { exact: true }) }),
    `BMI${run}`,
    `BMI${run}`,
  );
  await page.keyboard.press('Escape');
  await okButton(page).click();
  await expect(gf).toBeHidden();
  await expect(groups.getByRole('row', { name: new RegExp(`体格指标${run}`) })).toContainText(`BMI${run}`);
  await settled(page);
  await screenshot(page, 'data-model-6-indicator-groups');

  // 5. Coding mappings: the story's local diagnosis → ICD-10 B18 for MH.MHDECOD (the coding area's mapping).
  await page.goto('/data-model/coding-mapping-relationship');
  const mapping = page.getByTestId('coding-mapping');
  await mapping.getByTestId('coded-variable-MH.MHDECOD').click();
  await mapping.getByTestId('mapping-add').click();
  const mf = dialog(page);
  await mf.getByLabel('本地名称').fill(term);
  await chooseOption(page, mf.locator('.ant-select', { has: page.getByLabel('标准编码') }), /^B18 /, 'B18');
  await okButton(page).click();
  await expect(mf).toBeHidden();
  await mapping.getByPlaceholder('搜索本地名称或编码').fill(term);
  await mapping.getByPlaceholder('搜索本地名称或编码').press('Enter');
  await expect(
    mapping.getByTestId('mapping-table').getByRole('row', { name: new RegExp(term) }),
  ).toContainText('B18');
  await settled(page);
  await screenshot(page, 'data-model-7-coding-mapping');
  const coding = await restCall<{ items: Array<{ term: string; code: string }> }>(
    'GET',
    `coding/disease/mappings?q=${encodeURIComponent(term)}`,
    key,
  );
  expect(coding.body.data.items[0]).toMatchObject({ term, code: 'B18' });

  // 6. Data model management: every model, and the subject exported by the hospital model.
  await page.goto('/data-model/data-model-managements');
  const manage = page.getByTestId('data-model-managements');
  await expect(manage.getByRole('row', { name: new RegExp(`HBVT${run}`) })).toContainText('专病模型模板');
  const exp = page.getByTestId('sdtm-export');
  await chooseOption(page, exp.getByTestId('sdtm-subject'), `SDTM课题${run}`, `SDTM课题${run}`);
  await chooseOption(page, exp.getByTestId('sdtm-model'), `乙肝模型${run} v1`);
  const preview = exp.getByTestId('sdtm-preview');
  await expect(preview.getByRole('row', { name: /^DM/ })).toContainText('2');
  await expect(preview.getByRole('row', { name: /^LB/ })).toContainText('2');
  await settled(page);
  await screenshot(page, 'data-model-8-export');
  const download = page.waitForEvent('download');
  await exp.getByTestId('sdtm-download').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`sdtm-CRDP${sid}.zip`);
  const zip = await readZip(readFileSync((await file.path())!));
  expect([...zip.keys()]).toEqual(['dm.csv', 'mh.csv', 'lb.csv', 'vs.csv', 'define.xml']);
  expect(zip.get('dm.csv')).toContain(`CRDP${sid}-${patients[0]}`);
  expect(zip.get('dm.csv')).toContain('HBVGENO');
  expect(zip.get('mh.csv')).toContain(term);
  expect(zip.get('define.xml')).toContain('def:DefineVersion="2.0.0"');
  expect(zip.get('define.xml')).toContain('<ItemGroupDef OID="IG.DM"');
  for (const text of zip.values()) expect(text).not.toContain(`模型${run}1`);

  // The same screen in English.
  await switchLanguage(page, 'English');
  await expect(page.getByText('Export SDTM datasets')).toBeVisible();
  await settled(page);
  await screenshot(page, 'data-model-9-managements-en');
  await page.goto('/data-model/data-model-cdisc');
  await expect(page.getByTestId('data-model-cdisc').getByRole('row', { name: /SEX/ }).first()).toContainText(
    'Required',
  );
  await screenshot(page, 'data-model-10-cdisc-en');
  await switchLanguage(page, '简体中文');
});
