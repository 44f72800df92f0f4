import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crfFormVersions, crfRecords } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { download, freeAccessKey, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';
import { hasXmllint, validXml } from '../test/xml.js';
import { LIVER_FORM, registerPatients } from './testform.js';

const ODM_EXAMPLES = fileURLToPath(new URL('../../../../fixtures/odm/examples/', import.meta.url));
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
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
    await registerPatients(t.app, ['S-1', '=cmd']);
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
    const codes = await download(t.app, `/api/v0.1/crf/forms/${formId}/export?format=csv`, admin);
    expect(codes.statusCode).toBe(200);
    expect(codes.headers['content-type']).toContain('text/csv');
    const lines = codes.body.replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('record_id,subject,status,version,updated_at,weight,height,bmi,hbsag,hbvDna,note');
    expect(lines[1]).toMatch(/^\d+,S-1,submitted,1,.*,70,170,24.2,neg,,"a,""b""\nc"$/);
    expect(lines[2]).toContain(",'=cmd,");
    const names = await download(
      t.app,
      `/api/v0.1/crf/forms/${formId}/export?format=csv&labels=names`,
      admin,
    );
    expect(names.body).toContain(',阴性,');
  });

  it('exports CDISC ODM 1.3.2 that validates against the schema', async () => {
    const res = await download(t.app, `/api/v0.1/crf/forms/${formId}/export?format=odm`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ODMVersion="1.3.2"');
    expect(res.body).toContain('<ItemData ItemOID="I.hbvDna" Value="1200"/>');
    expect(res.body).toContain('<CodeListItem CodedValue="pos">');
    // Throws (and fails the test) when the file does not validate.
    if (hasXmllint) await validXml(res.body);
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
    const csv = await download(t.app, `/api/v0.1/crf/forms/${formId}/export`, admin);
    expect(csv.body.trim().split('\r\n').length).toBe(1 + 2 + 1100);
    const xlsx = await download(t.app, `/api/v0.1/crf/forms/${formId}/export?format=xlsx`, admin);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const bytes = xlsx.rawPayload;
    expect(bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    const sheet = (await readZip(bytes)).get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<row r="1103">');
    expect(sheet).toContain('<c r="F2"><v>70</v></c>');
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

  it('imports its own ODM export back: items, codes, ranges, decimals and required survive', async () => {
    const odm = await download(t.app, `/api/v0.1/crf/forms/${formId}/export?format=odm`, admin);
    expect(odm.body).toContain(
      '<RangeCheck Comparator="GE" SoftHard="Hard"><CheckValue>1</CheckValue></RangeCheck>',
    );
    expect(odm.body).toContain('DataType="float" SignificantDigits="1"');
    if (hasXmllint) await validXml(odm.body);
    const res = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: 'ODM 往返', content: odm.body },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.unsupported).toEqual([]);
    const form = await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin);
    expect(form.body.data.problems).toEqual([]);
    const [page] = form.body.data.draft.pages;
    expect(page.title).toBe('基本信息');
    const items = Object.fromEntries(page.items.map((i: { key: string }) => [i.key, i]));
    expect(Object.keys(items)).toEqual(['weight', 'height', 'bmi', 'hbsag', 'hbvDna', 'note']);
    expect(items.weight).toMatchObject({
      type: 'textQuestion',
      title: '体重 (kg)',
      textType: 'number',
      isRequired: 1,
      minVal: 1,
      maxVal: 400,
    });
    expect(items.height).toMatchObject({ minVal: 30, maxVal: 260, isRequired: 1 });
    expect(items.bmi).toMatchObject({ textType: 'number', fixed: 1 });
    expect(items.hbsag).toMatchObject({
      type: 'radio',
      isRequired: 1,
      options: [
        { code: 'neg', name: '阴性' },
        { code: 'pos', name: '阳性' },
      ],
    });
    expect(items.hbvDna.isRequired).toBe(1);
    expect(items.note).toMatchObject({ textType: 'text', maxNub: 200 });
    expect(items.note.isRequired).toBeUndefined();
  });

  it('imports the forms of real ODM 1.3.2 metadata files', async () => {
    const dave = await readFile(
      path.join(ODM_EXAMPLES, 'MetaData_Dave_1_3_2_new_2006_01_26_extra_languages.xml'),
      'utf8',
    );
    const res = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: 'CES baseline', content: dave },
      admin,
    );
    expect(res.status).toBe(200);
    const un: string[] = res.body.data.unsupported;
    // The file's other six forms are named, so the user knows to import them one by one.
    expect(un[0]).toMatch(/^other forms in the file were not imported: F_CM \(Prior or Concomitant /);
    expect(un[0]?.match(/F_[A-Z0-9_]+ \(/g)).toHaveLength(6);
    expect(un).toContain('I_VISITTIME: data type "time" imported as free text');
    expect(un).toContain('I_DIABP: derivation method METH.001 (Test Algorithm 1) not translated');
    const form = await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin);
    expect(form.body.data.problems).toEqual([]);
    const draft = form.body.data.draft;
    expect(draft.pages.map((p: { title: string }) => p.title)).toEqual([
      'Common',
      'Demographics',
      'Smoking History',
      'Complaints due to smoking',
      'Drinking History',
      'Physical Exam',
      'XRay',
    ]);
    const items = Object.fromEntries(
      draft.pages
        .flatMap((p: { items: { key: string }[] }) => p.items)
        .map((i: { key: string }) => [i.key, i]),
    );
    // English text chosen over French, German and an empty Korean one; units from BasicDefinitions.
    expect(items.I_SYSBP).toMatchObject({
      title: 'Systolic blood pressure',
      textType: 'number',
      fixed: 0,
      unit: 'mm Hg',
      maxVal: 179,
    });
    // Mandatory comes from this form's ItemRef (No here, Yes in the week forms).
    expect(items.I_SYSBP.isRequired).toBeUndefined();
    expect(items.I_SEX).toMatchObject({
      type: 'radio',
      isRequired: 1,
      options: [
        { code: 'M', name: 'Male' },
        { code: 'F', name: 'Female' },
      ],
    });
    expect(items.I_SUBJECTID).toMatchObject({ textType: 'text', maxNub: 11 });
    expect(items.I_BRTHDT).toMatchObject({ textType: 'date' });
    expect(items.I_SMOKING.options.map((o: { code: string }) => o.code)).toEqual(['1', '0']);
    // "Not collected while I_SMOKING is false" became a show rule on the boolean's code.
    expect(items.I_NR_CIGARETTES.isHide).toBe(1);
    expect(draft.showRules).toContainEqual({
      indicatorName: 'I_SMOKING',
      condition: 'notEquals',
      indicatorVal: '0',
      selectItems: ['I_NR_CIGARETTES'],
    });

    const openedc = await readFile(path.join(ODM_EXAMPLES, 'openedc_metadata.xml'), 'utf8');
    const who = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: 'WHO-5', content: openedc, formOid: 'F.4' },
      admin,
    );
    expect(who.status).toBe(200);
    const whoForm = (await get(t.app, `/api/v0.1/crf/forms/${who.body.data.form.id}`, admin)).body.data;
    expect(whoForm.problems).toEqual([]);
    const first = whoForm.draft.pages[1].items[1];
    expect(first).toMatchObject({
      key: 'WHO_1',
      type: 'radio',
      title: 'I have felt cheerful and in good spirits',
    });
    expect(first.options).toHaveLength(6);
    expect(who.body.data.unsupported).toContainEqual(expect.stringMatching(/^I\.2: derivation method M\.2/));
    const basis = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: 'Basis', content: openedc, formOid: 'F.1' },
      admin,
    );
    // OpenEDC's `!(Gender == "Female")` exception: shown only for women.
    const basisForm = (await get(t.app, `/api/v0.1/crf/forms/${basis.body.data.form.id}`, admin)).body.data;
    expect(basisForm.problems).toEqual([]);
    expect(basisForm.draft.showRules).toContainEqual({
      indicatorName: 'Gender',
      condition: 'equals',
      indicatorVal: 'Female',
      selectItems: ['Pregnant'],
    });
  });

  it('refuses malformed, DOCTYPE-carrying, oversize or foreign XML with a 400 naming the field', async () => {
    const before = (await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total;
    const odm = (body: string) =>
      `<?xml version="1.0"?><ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" ODMVersion="1.3.2">${body}</ODM>`;
    const attempt = (content: string, extra: Record<string, unknown> = {}) =>
      post(t.app, '/api/v0.1/crf/forms/import', { format: 'odm', name: 'bad', content, ...extra }, admin);
    const broken = await attempt(odm('<Study OID="S"><MetaDataVersion OID="M" Name="M"></Study>'));
    expect(broken.status).toBe(400);
    expect(broken.body.field).toBe('body.content');
    expect(broken.body.message).toMatch(/^请求参数错误：body\.content: XML 格式不正确（第 \d+ 行：/);
    const brokenEn = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/crf/forms/import',
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: {
        format: 'odm',
        name: 'bad',
        content: odm('<Study OID="S"><MetaDataVersion OID="M" Name="M"></Study>'),
      },
    });
    expect(brokenEn.statusCode).toBe(400);
    expect(brokenEn.json().message).toMatch(
      /^Invalid request: body\.content: not well-formed XML \(line \d+: /,
    );
    const xxe = await attempt(
      '<?xml version="1.0"?><!DOCTYPE ODM [<!ENTITY x SYSTEM "file:///etc/passwd">]><ODM>&x;</ODM>',
    );
    expect(xxe.status).toBe(400);
    expect(xxe.body.message).toContain('ODM 文件不能包含 DOCTYPE 或实体声明');
    const bomb = await attempt(
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${'<!ENTITY lol1 "&lol;&lol;&lol;">'}]><ODM/>`,
    );
    expect(bomb.status).toBe(400);
    const huge = await attempt(odm(`<!--${'x'.repeat(5 * 1024 * 1024)}-->`));
    expect(huge.status).toBe(400);
    expect(huge.body.field).toBe('body.content');
    expect(huge.body.message).toBe('请求参数错误：body.content: ODM 文件不能超过 5 MB');
    const deep = await attempt(odm(`${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`));
    expect(deep.status).toBe(400);
    expect(deep.body.field).toBe('body.content');
    for (const junk of ['x', '<', '<ODM', '\u0000\uffff', '<ODM><Study/></ODM>', '{"pages":[]}'])
      expect((await attempt(junk)).status, junk).toBe(400);
    const foreign = await attempt('<?xml version="1.0"?><html><body/></html>');
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain('根元素不是 <ODM>');
    const empty = await attempt(odm('<Study OID="S"/>'));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('ODM 文件中没有带 MetaDataVersion 的 Study');
    const noForm = await attempt(
      odm(
        '<Study OID="S"><MetaDataVersion OID="M" Name="M"><FormDef OID="F.A" Name="A" Repeating="No"/></MetaDataVersion></Study>',
      ),
      { formOid: 'F.B' },
    );
    expect(noForm.status).toBe(400);
    expect(noForm.body.field).toBe('body.formOid');
    expect(noForm.body.message).toBe('请求参数错误：body.formOid: 文件中没有 FormDef "F.B"（文件中有：F.A）');
    expect((await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total).toBe(before);
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
    const file = await download(t.app, `/api/v0.1/crf/uploads/${id}`, researcher);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(t.app, `/api/v0.1/crf/uploads/${id}`, lab.key)).status).toBe(404);
    // A free link of the form sees only its own files.
    const free = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: String(formId) });
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
    expect((await download(t.app, `/api/v0.1/crf/uploads/${mine.body.data.uploadId}`, free)).statusCode).toBe(
      200,
    );
  });
});
