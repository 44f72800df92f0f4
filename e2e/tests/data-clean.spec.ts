import type { Page, Request } from '@playwright/test';
import { account, apiLogin, expect, restCall, runId, screenshot, signInToWorkbench, test } from '../fixtures';

/**
 * The patient record form of the data-cleaning area (issue 6): the list
 * `/data-clean/hepatopathyPoc` of a disease library's patients and the record form
 * `/data-clean/hepatopathyPocList` with its breadcrumb (patient name, first-visit date) and the
 * next button that asks the server for the next page with the previous request at the end of a
 * page, `暂无数据` without data and `已经是最后一位了` at the very end. Also deleting a CRF record
 * with a reason from the records list.
 */
// Names and diagnosis codes of the running attempt (set as each test starts): a parallel or repeated
// attempt never meets them. The codes are matched as prefixes: no other patient falls into these libraries.
let RUN = '';
let CODE = '';
let EMPTY_CODE = '';
let LIBRARY = '';
let EMPTY_LIBRARY = '';
let FORM = '';
function startRun() {
  RUN = runId();
  CODE = `DC${RUN}Q`;
  EMPTY_CODE = `DE${RUN}Q`;
  LIBRARY = `E2E清洗库${RUN}`;
  EMPTY_LIBRARY = `E2E空清洗库${RUN}`;
  FORM = `E2E清洗表${RUN}`;
}
const PATIENTS = 12;
const LIST_CALL = 'diseaselibrary/get_page_disease_library_patient_list';

const name = (i: number) => `清洗${RUN}-${String(i + 1).padStart(2, '0')}`;
// Patient i first came on 2023-01-(i+1): the library files patients by first visit, in this order.
const firstVisit = (i: number) => `2023-01-${String(i + 1).padStart(2, '0')}`;

const DEFINITION = {
  pages: [
    {
      key: 'base',
      title: '肝病随访',
      items: [
        { key: 'alt', type: 'textQuestion', title: 'ALT (U/L)', textType: 'number' },
        { key: 'note', type: 'textQuestion', title: '随访备注', textType: 'text' },
      ],
    },
  ],
};

async function ok<T>(call: Promise<{ status: number; body: { data: T } }>) {
  const r = await call;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function publishedForm(key: string, formName: string) {
  const form = await ok(
    restCall<{ id: number }>('POST', 'crf/forms', key, { name: formName, definition: DEFINITION }),
  );
  await ok(restCall('POST', `crf/forms/${form.id}/publish`, key, { note: 'v1' }));
  return form.id;
}

async function seedPatients(key: string) {
  for (let i = 0; i < PATIENTS; i++) {
    const p = await ok(
      restCall<{ id: number }>('POST', 'cdr/patients', key, {
        mrn: `DC${RUN}-${i}`,
        name: name(i),
        gender: i % 2 ? 1 : 2,
        birthDate: `${1960 + i}-03-01`,
      }),
    );
    const at = `${firstVisit(i)}T12:00:00+08:00`;
    await ok(
      restCall('POST', `cdr/patients/${p.id}/records`, key, {
        table: 'visits',
        row: { kind: 'outpatient', admitAt: at },
      }),
    );
    await ok(
      restCall('POST', `cdr/patients/${p.id}/records`, key, {
        table: 'diagnoses',
        row: { icd10: CODE, name: '慢性肝病（清洗测试）', diagnosedAt: at },
      }),
    );
  }
}

async function library(key: string, libName: string, code: string, crfFormId: number) {
  return ok(
    restCall<{ id: number }>('POST', 'diseaselibrary/libraries', key, {
      name: libName,
      crfFormId,
      filingRule: 'firstVisit',
      criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: [code] }], exclusion: [] },
    }),
  );
}

/** Pushes the matching patients and waits for the push job to file all of them. */
async function pushAll(key: string, libraryId: number, expected: number) {
  await ok(restCall('POST', `diseaselibrary/libraries/${libraryId}/push`, key, {}));
  await expect
    .poll(
      async () =>
        (
          await ok(
            restCall<{ total: number }>('POST', LIST_CALL, key, { library_id: libraryId, page: 1, size: 1 }),
          )
        ).total,
      { timeout: 30_000 },
    )
    .toBe(expected);
}

async function pickLibrary(page: Page, libName: string) {
  await page.getByTestId('poc-library').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: libName })
    .click();
}

const isListCall = (r: Request) => r.method() === 'POST' && r.url().includes(LIST_CALL);

test('the record form walks a library of two pages to its last patient with the next button', async ({
  page,
}) => {
  test.setTimeout(180_000);
  startRun();
  const admin = account('admin');
  const key = await apiLogin(admin);
  const formId = await publishedForm(key, FORM);
  await seedPatients(key);
  const lib = await library(key, LIBRARY, CODE, formId);
  const empty = await library(key, EMPTY_LIBRARY, EMPTY_CODE, formId);
  await pushAll(key, lib.id, PATIENTS);

  await signInToWorkbench(page, admin);
  const listCalls: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (isListCall(r)) listCalls.push(r.postDataJSON() as Record<string, unknown>);
  });

  // A library with a form and no patients: the list says so.
  await page.goto('/data-clean/hepatopathyPoc');
  await pickLibrary(page, EMPTY_LIBRARY);
  await expect(page.locator('.ant-table-placeholder')).toContainText('暂无数据');
  expect(listCalls.at(-1)).toMatchObject({ library_id: empty.id, page: 1 });
  await screenshot(page, 'data-clean-1-empty-list');

  // The library of twelve patients: ten on the first page, in filing (first-visit) order.
  await pickLibrary(page, LIBRARY);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText(name(0));
  await expect(rows.first()).toContainText(firstVisit(0));
  await expect(page.locator('.ant-pagination')).toContainText('2');
  const listRequest = listCalls.at(-1)!;
  expect(listRequest).toMatchObject({ library_id: lib.id, page: 1, size: 10 });
  await screenshot(page, 'data-clean-2-list');

  // The first patient's record form: the breadcrumb names the patient and the first-visit date.
  await rows.first().getByRole('button', { name: '填写' }).click();
  await expect(page).toHaveURL(/\/data-clean\/hepatopathyPocList/);
  const patient = page.getByTestId('poc-patient');
  const filing = page.getByTestId('poc-filing');
  await expect(patient).toHaveText(name(0));
  await expect(filing).toHaveText(firstVisit(0));
  await expect(page.locator('.ant-breadcrumb')).toContainText(name(0));
  await expect(page.getByText('ALT (U/L)')).toBeVisible();
  // The form's subject line names the patient too (a library's subject code is only secondary text).
  const subjectName = page.getByTestId('crf-subject-name');
  await expect(subjectName).toHaveText(name(0));
  await expect(page.getByTestId('crf-subject-code')).toHaveText(/\S/);
  await screenshot(page, 'data-clean-3-record');

  // Next walks the first page without asking the server.
  const next = page.getByTestId('poc-next');
  const callsBefore = listCalls.length;
  for (let i = 1; i < 10; i++) {
    await next.click();
    await expect(patient).toHaveText(name(i));
    await expect(filing).toHaveText(firstVisit(i));
    await expect(subjectName).toHaveText(name(i));
  }
  expect(listCalls.length).toBe(callsBefore);

  // At the end of the page it repeats the previous request for the next page.
  const page2 = page.waitForRequest(isListCall);
  await next.click();
  const body2 = (await page2).postDataJSON() as Record<string, unknown>;
  expect(body2).toEqual({ ...listRequest, page: 2 });
  await expect(patient).toHaveText(name(10));
  await expect(filing).toHaveText(firstVisit(10));
  await screenshot(page, 'data-clean-4-page-two');
  await next.click();
  await expect(patient).toHaveText(name(11));

  // Past the last patient: one more request (page 3, nothing there) and the message.
  const page3 = page.waitForRequest(isListCall);
  await next.click();
  expect((await page3).postDataJSON()).toEqual({ ...listRequest, page: 3 });
  await expect(page.getByText('已经是最后一位了')).toBeVisible();
  // The last patient stays open.
  await expect(patient).toHaveText(name(11));
  await expect(next).not.toHaveClass(/ant-btn-loading/);
  await screenshot(page, 'data-clean-5-last');

  // Back to the list by the breadcrumb: the same library, on the page of the last patient.
  await page.locator('.ant-breadcrumb').getByRole('button', { name: '肝病患者列表' }).click();
  await expect(page).toHaveURL(/\/data-clean\/hepatopathyPoc$/);
  await expect(page.getByTestId('poc-library')).toContainText(LIBRARY);
  await expect(rows).toHaveCount(2);
  await expect(rows.last()).toContainText(name(11));

  // The record form without a list to walk: no data, and next says so too.
  await page.evaluate(() => {
    for (const k of Object.keys(localStorage)) if (k.endsWith('CRF_POC_WALK')) localStorage.removeItem(k);
  });
  await page.goto('/data-clean/hepatopathyPocList');
  await expect(page.locator('.ant-result-title')).toHaveText('暂无数据');
  await expect(page.locator('.ant-breadcrumb li')).toHaveCount(1);
  await next.click();
  await expect(page.locator('.ant-message')).toContainText('暂无数据');
  await screenshot(page, 'data-clean-6-no-walk');
});

test('a CRF record is deleted from the records list with a reason; a locked one cannot be', async ({
  page,
}) => {
  startRun();
  const admin = account('admin');
  const key = await apiLogin(admin);
  const formId = await publishedForm(key, `E2E删除表${RUN}`);
  const ids: number[] = [];
  for (const subject of [`DEL${RUN}-A`, `DEL${RUN}-B`]) {
    // A record's subject code names a patient of the app: the patient with that MRN.
    await ok(restCall('POST', 'cdr/patients', key, { mrn: subject, name: `删除测试${subject}`, gender: 2 }));
    const r = await ok(
      restCall<{ id: number }>('POST', `crf/forms/${formId}/records`, key, {
        subjectCode: subject,
        submit: true,
        answers: { alt: 40 },
      }),
    );
    ids.push(r.id);
  }
  await ok(restCall('POST', `crf/records/${ids[1]}/lock`, key, { reason: '锁库' }));

  await signInToWorkbench(page, admin);
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}`);
  const rowA = page.getByRole('row').filter({ hasText: `DEL${RUN}-A` });
  const rowB = page.getByRole('row').filter({ hasText: `DEL${RUN}-B` });
  await expect(rowA).toBeVisible({ timeout: 60_000 });
  // A locked record's delete button is disabled.
  await expect(rowB.getByRole('button', { name: '删除' })).toBeDisabled();

  await rowA.getByRole('button', { name: '删除' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`删除记录 #${ids[0]}`);
  await dialog.getByRole('button', { name: /删\s*除/ }).click();
  await expect(dialog).toContainText('请填写删除原因');
  await screenshot(page, 'data-clean-7-delete-dialog');
  await dialog.getByLabel('删除原因').fill('重复录入');
  await dialog.getByRole('button', { name: /删\s*除/ }).click();
  await expect(page.getByText('记录已删除')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowA).toHaveCount(0);
  await expect(rowB).toBeVisible();
  await screenshot(page, 'data-clean-8-deleted');

  // The deleted record still opens, read-only, saying who deleted it and why.
  await page.goto(`/crf-management/hepatopathyPoc?formId=${formId}&recordId=${ids[0]}`);
  await expect(page.locator('.ant-alert')).toContainText('重复录入');
  await expect(page.getByRole('button', { name: '保存修改' })).toHaveCount(0);
  await page.getByRole('button', { name: '修改历史' }).click();
  await expect(page.locator('.ant-drawer')).toContainText('重复录入');
  await screenshot(page, 'data-clean-9-deleted-record');
});
