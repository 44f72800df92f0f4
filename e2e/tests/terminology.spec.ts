import { dialog, expect, runId, screenshot, signInToWorkbench, switchLanguage, test } from '../fixtures';

/**
 * The terminology store (issues 18 and 19): a coder opens 新增疾病编码, finds 2 型糖尿病 by its
 * pinyin initials, walks its hierarchy up and down, adds a local extension code under it (with a
 * synonym, which then finds it), and is refused, in words, a code that is already a standard
 * ICD-10 code. Local codes carry the story's run id: the hospital is shared with other stories.
 */
test('a coder browses ICD-10 and adds a local extension code under a standard one', async ({
  page,
  ownAdmin,
}) => {
  test.slow();
  const run = runId();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToWorkbench(page, ownAdmin);

  await page.goto('/data-clean/disease-new-code');
  // The first read of the store loads the shipped lists (a fresh hospital database): allow for it.
  await expect(page.getByTestId('system-ICD10')).toContainText('MIT © 2017 Chase Liu', { timeout: 90_000 });
  await expect(page.getByTestId('system-ICD10')).toContainText('1824 个标准编码');
  const search = page.getByPlaceholder(/输入中文词、拼音首字母或编码/);
  await search.fill('fydsy');
  const hits = page.getByTestId('concept-hits');
  await expect(hits).toContainText('非胰岛素依赖型糖尿病');
  await expect(hits).toContainText('拼音首字母');
  await hits.getByText('非胰岛素依赖型糖尿病').click();
  const detail = page.getByTestId('concept-detail');
  await expect(detail).toContainText('内分泌、营养和代谢疾病');
  await expect(detail.locator('.ant-breadcrumb')).toContainText('E10-E14 糖尿病');
  await screenshot(page, 'terminology-disease-detail');

  // Up the hierarchy: the block 糖尿病 lists its five categories.
  await detail.locator('.ant-breadcrumb').getByText('E10-E14 糖尿病').click();
  await expect(page.getByTestId('concept-children')).toContainText('E14 未特指的糖尿病');
  await page.getByTestId('concept-children').getByText('E11 非胰岛素依赖型糖尿病').click();
  await expect(detail.getByRole('heading')).toContainText('E11 非胰岛素依赖型糖尿病');

  // A local code under E11, with a synonym.
  const code = `E11.9x${run}`;
  await page.getByTestId('add-under').click();
  await expect(dialog(page)).toContainText('在 E11 下新增');
  await dialog(page).getByLabel('扩展编码').fill(code);
  await dialog(page).getByLabel('中文名称').fill(`2型糖尿病伴酮症${run}`);
  const synonyms = dialog(page).getByLabel('同义词');
  await synonyms.fill(`糖友酮症${run}`);
  await synonyms.press('Enter');
  await screenshot(page, 'terminology-add-local-code');
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page)).toBeHidden();
  await expect(detail.getByRole('heading')).toContainText(code);
  await expect(detail).toContainText('本院扩展');
  await expect(detail).toContainText(`糖友酮症${run}`);
  await expect(detail.locator('.ant-breadcrumb')).toContainText('E11 非胰岛素依赖型糖尿病');

  // Its synonym finds it.
  await search.fill(`糖友酮症${run}`);
  await expect(hits).toContainText(code);
  await expect(hits).toContainText(`同义词：糖友酮症${run}`);
  await screenshot(page, 'terminology-local-code-found');

  // A standard code cannot be taken: 409 in words, the dialog stays open.
  await page.getByRole('button', { name: '新增扩展编码' }).click();
  await dialog(page).getByLabel('扩展编码').fill('E12');
  await dialog(page).getByLabel('中文名称').fill(`冒名顶替${run}`);
  await dialog(page)
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(dialog(page).getByRole('alert')).toContainText(
    /已有标准编码 E12（营养不良相关性糖尿病），本院扩展编码不能覆盖标准编码/,
  );
  await expect(dialog(page)).toBeVisible();
  await screenshot(page, 'terminology-standard-code-refused');
  await dialog(page)
    .getByRole('button', { name: /取\s?消/ })
    .click();

  // The lab test screen: LOINC, searched by a Chinese word.
  await page.goto('/data-clean/inspection-new-code');
  await expect(page.getByTestId('system-LOINC')).toContainText('LOINC');
  await page.getByPlaceholder(/输入中文词、拼音首字母或编码/).fill('血红蛋白');
  await expect(page.getByTestId('concept-hits')).toContainText('718-7');
  await expect(page.getByTestId('concept-hits')).toContainText('名称完全一致');

  // In English.
  await switchLanguage(page, 'English');
  await expect(page.getByRole('button', { name: 'Add local code' })).toBeVisible();
  await expect(page.getByTestId('concept-hits')).toContainText('Exact name');
  await screenshot(page, 'terminology-lab-en');
});
