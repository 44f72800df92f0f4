import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTwoPatientsCsv, waitForImport } from '../clinical/test/support.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { BUSY_RETRY_SECONDS, ParsePool } from './pool.js';
import { bigOdm } from './test/big-odm.js';

const EXAMPLE = fileURLToPath(
  new URL('../../../../fixtures/odm/examples/openedc_metadata.xml', import.meta.url),
);
const IMPORT = '/api/v0.1/crf/forms/import';

describe('uploaded files are parsed off the event loop', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers /healthz while a 5 MB ODM import is read, before the import finishes', async () => {
    const content = bigOdm();
    expect(content.length).toBeGreaterThan(5_000_000);
    let finished = false;
    const importing = post(
      t.app,
      IMPORT,
      { format: 'odm', name: 'WHO-5 (5 MB)', content, formOid: 'F.4' },
      admin,
    );
    void importing.then(() => {
      finished = true;
    });
    // A /healthz every few tens of ms for as long as the import runs. Reading the file on the event
    // loop would hold every one of them (and the timer between them) until the parse was over.
    const health: Array<{ status: number; beforeImport: boolean }> = [];
    while (!finished) {
      await new Promise((r) => setTimeout(r, 25));
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      health.push({ status: res.statusCode, beforeImport: !finished });
    }
    const imported = await importing;
    expect(imported.status).toBe(200);
    expect(health.every((h) => h.status === 200)).toBe(true);
    // Ordering, not timing: many health checks were sent and answered while the import was still running.
    expect(health.filter((h) => h.beforeImport).length).toBeGreaterThanOrEqual(10);

    // The same form and the same report as the example file itself gives.
    const small = await post(
      t.app,
      IMPORT,
      { format: 'odm', name: 'WHO-5', content: readFileSync(EXAMPLE, 'utf8'), formOid: 'F.4' },
      admin,
    );
    expect(small.status).toBe(200);
    expect(imported.body.data.unsupported).toEqual(small.body.data.unsupported);
    const big = (await get(t.app, `/api/v0.1/crf/forms/${imported.body.data.form.id}`, admin)).body.data;
    const ref = (await get(t.app, `/api/v0.1/crf/forms/${small.body.data.form.id}`, admin)).body.data;
    expect(big.draft).toEqual(ref.draft);
    expect(big.draft.pages[1].items[1]).toMatchObject({ key: 'WHO_1', type: 'radio' });
  }, 180_000);

  it('gives a malformed file the same line-numbered 400 through the worker, in both languages', async () => {
    const before = t.app.parsing.completed;
    const total = (await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total;
    const broken = `<?xml version="1.0"?>\n<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" ODMVersion="1.3.2">\n<Study OID="S">\n<MetaDataVersion OID="M" Name="M">\n</Study>\n</ODM>`;
    const zh = await post(t.app, IMPORT, { format: 'odm', name: 'bad', content: broken }, admin);
    expect(zh.status).toBe(400);
    expect(zh.body).toMatchObject({ errorCode: 'request.invalid', field: 'body.content' });
    expect(zh.body.message).toBe(
      "请求参数错误：body.content: XML 格式不正确（第 5 行：Expected closing tag 'MetaDataVersion' (opened in line 4, col 1) instead of closing tag 'Study'.）",
    );
    const en = await t.app.inject({
      method: 'POST',
      url: IMPORT,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { format: 'odm', name: 'bad', content: broken },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toBe(
      "Invalid request: body.content: not well-formed XML (line 5: Expected closing tag 'MetaDataVersion' (opened in line 4, col 1) instead of closing tag 'Study'.)",
    );
    // A refusal raised after the parse (an unknown form) keeps its own field.
    const noForm = await post(
      t.app,
      IMPORT,
      { format: 'odm', name: 'bad', content: readFileSync(EXAMPLE, 'utf8'), formOid: 'F.X' },
      admin,
    );
    expect(noForm.status).toBe(400);
    expect(noForm.body.field).toBe('body.formOid');
    expect(noForm.body.message).toBe(
      '请求参数错误：body.formOid: 文件中没有 FormDef "F.X"（文件中有：F.1、F.2、F.3、F.4、F.5）',
    );
    const redcap = await post(t.app, IMPORT, { format: 'redcap', name: 'bad', content: 'a,b\n1,2\n' }, admin);
    expect(redcap.status).toBe(400);
    expect(redcap.body.message).toBe(
      '请求参数错误：body.content: REDCap 数据字典的第一列应为 "Variable / Field Name"',
    );
    const json = await post(t.app, IMPORT, { format: 'json', name: 'bad', content: '{"pages":' }, admin);
    expect(json.status).toBe(400);
    expect(json.body.message).toBe('请求参数错误：body.content: 不是有效的 JSON');
    // Each of them was read by a worker thread, and none of them stored a form.
    expect(t.app.parsing.completed).toBe(before + 5);
    expect((await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total).toBe(total);
  });

  it('maps CSV import jobs and reads OMOP mapping files in the worker too, with the same reports', async () => {
    const before = t.app.parsing.completed;
    const p = await importTwoPatientsCsv(t.app, admin, ['W001', 'W002']);
    expect(p.status).toBe(200);
    const done = await waitForImport(t.app, admin, p.body.data.id);
    expect(done.status).toBe('partial');
    expect(done.counts.patients).toBe(1);
    expect(done.errors).toEqual([expect.objectContaining({ row: 2, field: 'birthDate' })]);
    const m = await post(
      t.app,
      '/api/v0.1/omop/mappings/import',
      {
        fileName: 'bad.csv',
        text: 'kind,source_code,concept_id,concept_name\ndiagnosis,E10,201254,Type 1\n',
      },
      admin,
    );
    expect(m.status).toBe(200);
    expect(m.body.data).toMatchObject({ stored: false, inserted: 0 });
    expect(m.body.data.faults).toEqual([
      { row: 1, field: 'kind', message: expect.stringContaining('类型应为') },
    ]);
    expect(t.app.parsing.completed).toBe(before + 2);
  });

  it('refuses a parse with 503 and retry-after when every thread is busy and the queue is full', async () => {
    const pool = new ParsePool({ threads: 1, queue: 1, timeoutMs: 120_000 });
    try {
      const text = bigOdm(1024 * 1024);
      const running = pool.run({ kind: 'crf.odm', text, formOid: 'F.4' }).catch((e: unknown) => e);
      const waiting = pool.run({ kind: 'crf.odm', text, formOid: 'F.4' }).catch((e: unknown) => e);
      const refused = await pool.run({ kind: 'crf.odm', text, formOid: 'F.4' }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        status: 503,
        key: 'server.busy',
        values: { seconds: BUSY_RETRY_SECONDS },
      });
      const [a, b] = await Promise.all([running, waiting]);
      expect(a).toMatchObject({ form: { title: 'WHO-5' } });
      expect(b).toEqual(a);
      // With both done, there is room again.
      expect(await pool.run({ kind: 'csv.rows', text: 'a,b\n1,2\n', field: 'body.text' })).toEqual([
        ['a', 'b'],
        ['1', '2'],
      ]);
    } finally {
      await pool.close();
    }
    // After close a parse is refused at once, never left waiting.
    await expect(pool.run({ kind: 'csv.rows', text: 'a,b\n', field: 'body.text' })).rejects.toMatchObject({
      status: 503,
    });
  }, 180_000);

  it('stops a parse past its time limit with a 400 on the field, and ends its thread', async () => {
    const pool = new ParsePool({ threads: 1, queue: 1, timeoutMs: 1 });
    try {
      const refused = await pool
        .run({ kind: 'crf.odm', text: bigOdm(), formOid: 'F.4' }, 'body.content')
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ status: 400, key: 'request.invalid', field: 'body.content' });
    } finally {
      await pool.close();
    }
  });

  it("answers 503 with retry-after, in the reader's language, when the parse queue is full", async () => {
    // One thread and one place in the queue: of four 1 MB imports sent at once, the third and
    // later ones arrive while the first is still being read (its thread still starting) and find no room.
    const small = await startTestApp({ parseThreads: 1, parseQueue: 1 });
    try {
      const key = await signIn(small.app, 'admin');
      const content = bigOdm(1024 * 1024);
      const answers = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          small.app.inject({
            method: 'POST',
            url: IMPORT,
            headers: { WeAppAuthorization: key, 'accept-language': i % 2 ? 'en-US' : 'zh-CN' },
            payload: { format: 'odm', name: `WHO-5 ${i}`, content, formOid: 'F.4' },
          }),
        ),
      );
      const busy = answers.filter((a) => a.statusCode === 503);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expect(answers.filter((a) => a.statusCode === 200).length).toBe(4 - busy.length);
      for (const a of busy) {
        expect(a.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
        expect(a.json().errorCode).toBe('server.busy');
        expect(a.json().message).toMatch(
          /^(服务器正忙于读取其他文件，请 5 秒后重试|The server is busy reading other files; please retry in 5 s)$/,
        );
      }
    } finally {
      await small.close();
    }
  }, 180_000);
});
