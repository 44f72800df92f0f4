import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../test/harness/fingerprint.js';
import { signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * NUL, other control characters and lone surrogates anywhere in a request: a 400 naming the
 * value's path and position, in the reader's language, and nothing changes. PostgreSQL (and
 * PGlite) refuse NUL in text and JSON, so these values used to reach the database and come
 * back as a 500.
 */
describe('control characters in any input', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    key = await signIn(t.app, 'admin');
  });
  afterAll(async () => t.close());

  async function call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: string,
    locale: 'zh-CN' | 'en-US' = 'zh-CN',
  ) {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        WeAppAuthorization: key,
        'accept-language': locale,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  /** A CSV import of patients with this column mapping and text, as the import screen sends it. */
  const importPatients = (mapping: Record<string, string>, text: string, locale?: 'zh-CN' | 'en-US') =>
    call(
      'POST',
      '/api/v0.1/imports/csv',
      JSON.stringify({ fileName: 'p.csv', table: 'patients', mapping, text }),
      locale,
    );

  /** Sends the request, expects a 400 with the message and field, and an unchanged database. */
  async function refused(
    req: () => Promise<{ status: number; body: Record<string, unknown> }>,
    field: string,
    message: string,
  ) {
    const before = await fingerprint(t.app.db);
    const r = await req();
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    const error = (r.body.error ?? r.body) as { message: string; field: string };
    expect(error.field).toBe(field);
    expect(error.message).toContain(message);
    expect(await fingerprint(t.app.db)).toEqual(before);
  }

  it('a NUL in a body field: 400 naming body.name and its position, in zh-CN and en-US', async () => {
    const body = JSON.stringify({ code: 'nul-type', name: '肝病\u0000研究' });
    await refused(
      () => call('POST', '/api/v0.1/research/types', body),
      'body.name',
      'body.name: 不能包含控制字符（位置 3）',
    );
    await refused(
      () => call('POST', '/api/v0.1/research/types', body, 'en-US'),
      'body.name',
      'body.name: must not contain control characters (position 3)',
    );
  });

  it('a lone surrogate and a C1 control character in a nested field', async () => {
    await refused(
      () =>
        call(
          'POST',
          '/api/v0.1/omop/mappings',
          JSON.stringify({ kind: 'condition', sourceCode: 'K70', conceptId: 1, conceptName: 'x\ud800y' }),
        ),
      'body.conceptName',
      'body.conceptName: 含有无效的 Unicode 字符（位置 2）',
    );
    await refused(
      () =>
        call(
          'POST',
          '/api/merchants/MerchantsPermission',
          JSON.stringify({ method: 'AddRole', params: [{ RoleName: 'ab\u0085' }] }),
          'en-US',
        ),
      'params[0].RoleName',
      'params[0].RoleName: must not contain control characters (position 3)',
    );
  });

  it('a NUL in a query value: 400 naming querystring.keyword', async () => {
    await refused(
      () => call('GET', '/api/v0.1/omop/mappings?keyword=ab%00'),
      'querystring.keyword',
      'querystring.keyword: 不能包含控制字符（位置 3）',
    );
  });

  it('a NUL in a path parameter: 400 naming params.code', async () => {
    await refused(
      () => call('PUT', '/api/v0.1/research/types/ab%00cd', JSON.stringify({ name: '新名称' })),
      'params.code',
      'params.code: 不能包含控制字符（位置 3）',
    );
  });

  it('a NUL in an envelope param: 400 in the envelope shape naming params[0].RoleName', async () => {
    const r = await call(
      'POST',
      '/api/merchants/MerchantsPermission',
      JSON.stringify({ method: 'AddRole', params: { RoleName: '\u0000管理员' } }),
    );
    expect(r.body.code).toBe(1);
    await refused(
      () =>
        call(
          'POST',
          '/api/merchants/MerchantsPermission',
          JSON.stringify({ method: 'AddRole', params: [{ RoleName: '\u0000管理员' }] }),
        ),
      'params[0].RoleName',
      'params[0].RoleName: 不能包含控制字符（位置 1）',
    );
  });

  it('a NUL inside an uploaded CSV: 400 naming the field and the line', async () => {
    const csv = 'kind,source_code,concept_id,concept_name\ncondition,K70,194984,酒精性\u0000肝病\n';
    await refused(
      () => call('POST', '/api/v0.1/omop/mappings/import', JSON.stringify({ fileName: 'm.csv', text: csv })),
      'body.text',
      'body.text: 不能包含控制字符（第 2 行第 25 个字符）',
    );
    const patients = 'mrn,name\nM-1,张\u0000三\n';
    await refused(
      () => importPatients({ mrn: 'mrn', name: 'name' }, patients, 'en-US'),
      'body.text',
      'body.text: must not contain control characters (line 2, character 6)',
    );
  });

  it('a NUL in an object key: 400 naming the key', async () => {
    await refused(
      () => importPatients({ 'm\u0000rn': 'mrn' }, 'mrn\n1\n'),
      'body.mapping."m\\u0000rn"',
      '字段名不能包含控制字符（位置 2）',
    );
  });

  it('an impossible date (2026-02-30) in a cohort condition and a list filter: 400 naming the field', async () => {
    const criteria = {
      match: 'all',
      inclusion: [{ kind: 'diagnosis', codes: ['K70'], from: '2026-02-30' }],
      exclusion: [],
    };
    await refused(
      () => call('POST', '/api/v0.1/research/criteria/count', JSON.stringify(criteria)),
      'body.inclusion.0.from',
      'body.inclusion.0.from: 不是真实存在的日期（YYYY-MM-DD）',
    );
    await refused(
      () =>
        call(
          'POST',
          '/api/v0.1/diseaselibrary/get_page_disease_library_patient_list',
          JSON.stringify({ library_id: 1, filters: { filingTo: '2026-02-30' } }),
          'en-US',
        ),
      'body.filters.filingTo',
      'body.filters.filingTo: not a real date (YYYY-MM-DD)',
    );
  });

  it('a tab in a one-line field is refused by the field schema; line breaks pass in free text', async () => {
    await refused(
      () =>
        call('POST', '/api/v0.1/research/types', JSON.stringify({ code: 'tab-type', name: '肝病\t研究' })),
      'body.name',
      'body.name: 不能包含控制字符（位置 3）',
    );
    const ok = await call(
      'POST',
      '/api/v0.1/research/types',
      JSON.stringify({ code: 'multi-line', name: '肝病研究', description: '第一行\n第二行\t缩进' }),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
