import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crfFormVersions, crfRecords } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { LIVER_FORM } from './testform.js';

const ODM_XSD = fileURLToPath(new URL('../../../../../shared/data/odm/ODM1-3-2.xsd', import.meta.url));
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('CRF export, import and uploads', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let formId: number;
  let lab: { appId: number; key: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    lab = await otherAppAdministrator(t.app);
    formId = (
      await post(t.app, '/api/v0.1/crf/forms', { name: '导出, "测试"', definition: LIVER_FORM }, admin)
    ).body.data.id;
    await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin);
    for (const [code, w, hbsag] of [
      ['S-1', 70, 'neg'],
      ['=cmd', 82.5, 'pos'],
    ] as const) {
      await post(
        t.app,
        `/api/v0.1/crf/forms/${formId}/records`,
        {
          subjectCode: code,
          submit: true,
          answers: {
            weight: w,
            height: 170,
            hbsag,
            ...(hbsag === 'pos' ? { hbvDna: 1200 } : {}),
            note: 'a,"b"\nc',
          },
        },
        admin,
      );
    }
  });
  afterAll(async () => t.close());

  it('exports CSV with one column per item, codes or names, formula-safe and quoted', async () => {
    const codes = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/forms/${formId}/export?format=csv`,
      headers: { WeAppAuthorization: admin },
    });
    expect(codes.statusCode).toBe(200);
    expect(codes.headers['content-type']).toContain('text/csv');
    const lines = codes.body.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('record_id,subject,status,version,updated_at,weight,height,bmi,hbsag,hbvDna,note');
    expect(lines[1]).toMatch(/^\d+,S-1,submitted,1,.*,70,170,24.2,neg,,"a,""b""\nc"$/);
    expect(lines[2]).toContain(",'=cmd,");
    const names = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/forms/${formId}/export?format=csv&labels=names`,
      headers: { WeAppAuthorization: admin },
    });
    expect(names.body).toContain(',阴性,');
  });

  it('exports CDISC ODM 1.3.2 that validates against the schema', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/forms/${formId}/export?format=odm`,
      headers: { WeAppAuthorization: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ODMVersion="1.3.2"');
    expect(res.body).toContain('<ItemData ItemOID="I.hbvDna" Value="1200"/>');
    expect(res.body).toContain('<CodeListItem CodedValue="pos">');
    if (hasXmllint && existsSync(ODM_XSD)) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'odm-'));
      const file = path.join(dir, 'export.xml');
      await writeFile(file, res.body);
      // Throws (and fails the test) when the file does not validate.
      execFileSync('xmllint', ['--noout', '--schema', ODM_XSD, file], { stdio: 'pipe' });
    }
  });

  it('streams XLSX and large exports across read batches', async () => {
    // 1,100 more records, straight into the table: the export reads them 500 at a time.
    const [v] = await t.app.db.select().from(crfFormVersions).where(eq(crfFormVersions.formId, formId));
    const rows = Array.from({ length: 1100 }, (_, i) => ({
      appId: v!.appId,
      formId,
      versionId: v!.id,
      subjectCode: `B-${i}`,
      answers: { weight: 60 + (i % 10), height: 170, hbsag: 'neg' },
      status: 'submitted',
    }));
    await t.app.db.insert(crfRecords).values(rows);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/forms/${formId}/export`,
      headers: { WeAppAuthorization: admin },
    });
    expect(csv.body.trim().split('\r\n').length).toBe(1 + 2 + 1100);
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/forms/${formId}/export?format=xlsx`,
      headers: { WeAppAuthorization: admin },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const bytes = xlsx.rawPayload;
    expect(bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    const text = bytes.toString('utf8');
    expect(text).toContain('<row r="1103">');
    expect(text).toContain('<c r="F2"><v>70</v></c>');
    if (hasPython) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'xlsx-'));
      const file = path.join(dir, 'export.xlsx');
      await writeFile(file, bytes);
      // The ZIP is whole: every entry's CRC checks out.
      const out = execFileSync('python3', [
        '-c',
        'import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);print(z.testzip());print(len(z.namelist()))',
        file,
      ]);
      expect(out.toString().trim().split('\n')).toEqual(['None', '5']);
    }
  });

  it('export needs its function and stays in the app', async () => {
    expect((await get(t.app, `/api/v0.1/crf/forms/${formId}/export`, lab.key)).status).toBe(404);
    expect((await get(t.app, `/api/v0.1/crf/forms/${formId}/export?format=xls`, admin)).status).toBe(400);
  });

  it('imports a REDCap data dictionary, translating branching logic and sums, reporting the rest', async () => {
    const csv = [
      'Variable / Field Name,Form Name,Section Header,Field Type,Field Label,"Choices, Calculations, OR Slider Labels",Field Note,Text Validation Type OR Show Slider Number,Text Validation Min,Text Validation Max,Identifier?,Branching Logic (Show field only if...),Required Field?,Custom Alignment,Question Number (surveys only),Matrix Group Name,Matrix Ranking?,Field Annotation',
      'age,baseline,Demographics,text,Age,,,integer,0,120,,,y,,,,,',
      'smoker,baseline,,yesno,Smoker?,,,,,,,,y,,,,,',
      "packs,baseline,,text,Packs per day,,,number,,,,[smoker] = '1',,,,,,",
      'a,baseline,,text,A,,,number,,,,,,,,,,',
      'b,baseline,,text,B,,,number,,,,,,,,,,',
      'total,baseline,,calc,Total,[a] + [b],,,,,,,,,,,,',
      'weird,baseline,,calc,Weird,"if([a]>1, 1, 0)",,,,,,,,,,,,',
      'both,baseline,,text,Both,,,,,,,[a] > 1 and [b] > 2,,,,,,',
    ].join('\n');
    const res = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'redcap', name: 'REDCap', content: csv },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.unsupported).toEqual([
      'weird: calculation "if([a]>1, 1, 0)"',
      'both: branching logic "[a] > 1 and [b] > 2"',
    ]);
    const form = await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin);
    expect(form.body.data.problems).toEqual([]);
    expect(form.body.data.draft.showRules).toEqual([
      { indicatorName: 'smoker', condition: 'equals', indicatorVal: '1', selectItems: ['packs'] },
    ]);
    const bad = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'redcap', name: 'x', content: 'a,b\n1,2' },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.content');
    expect(
      (await post(t.app, '/api/v0.1/crf/forms/import', { format: 'json', name: 'x', content: '{' }, admin))
        .status,
    ).toBe(400);
    expect(
      (
        await post(
          t.app,
          '/api/v0.1/crf/forms/import',
          { format: 'json', name: 'x', content: '{}' },
          researcher,
        )
      ).status,
    ).toBe(403);
  });

  it('stores uploads under DATA_DIR/uploads, checks their content and serves them only in scope', async () => {
    const bad = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/uploads`,
      {
        fileName: 'x.png',
        contentType: 'image/png',
        dataBase64: Buffer.from('not a png').toString('base64'),
      },
      researcher,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.contentType');
    const exe = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/uploads`,
      { fileName: 'x.exe', contentType: 'application/x-msdownload', dataBase64: 'TVo=' },
      researcher,
    );
    expect(exe.status).toBe(400);
    const ok = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/uploads`,
      { fileName: '化验单.png', contentType: 'image/png', dataBase64: PNG.toString('base64') },
      researcher,
    );
    expect(ok.status).toBe(200);
    const id = ok.body.data.uploadId;
    expect(existsSync(path.join(t.dataDir, 'uploads', `app-1`))).toBe(true);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/crf/uploads/${id}`,
      headers: { WeAppAuthorization: researcher },
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(t.app, `/api/v0.1/crf/uploads/${id}`, lab.key)).status).toBe(404);
    // A free link of the form sees only its own files.
    const link = await post(
      t.app,
      '/api/v0.1/free_access',
      { scopeKind: 'crf', objectId: String(formId) },
      admin,
    );
    const free = (await post(t.app, '/api/v0.1/free_access/session', { key: link.body.data.key })).body.data
      .SessionKey;
    expect((await get(t.app, `/api/v0.1/crf/uploads/${id}`, free)).status).toBe(404);
    const mine = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/uploads`,
      {
        fileName: 'note.txt',
        contentType: 'text/plain',
        dataBase64: Buffer.from('血常规正常').toString('base64'),
      },
      free,
    );
    expect(mine.status).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v0.1/crf/uploads/${mine.body.data.uploadId}`,
          headers: { WeAppAuthorization: free },
        })
      ).statusCode,
    ).toBe(200);
  });
});
