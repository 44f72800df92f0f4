import type { ConceptDetail, ConceptHit, ImportReport, TerminologySystem } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, terminologyConcepts } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { download, freeAccessKey, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * The terminology store (术语服务): the built-in ICD-10 and LOINC lists, search by Chinese word,
 * pinyin initials and code prefix, concept detail with its hierarchy, local extension codes that
 * never overwrite a standard code, and a hospital's all-or-nothing full-list import. On the
 * embedded database and on PostgreSQL when DATABASE_URL is set.
 */
describe('terminology store', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let nobody: string;
  const T = '/api/v0.1/terminology';
  const searchFor = async (q: string, extra = '', key = admin) => {
    const res = await get(t.app, `${T}/concepts?q=${encodeURIComponent(q)}${extra}`, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as ConceptHit[];
  };
  const audits = (action: string) => t.app.db.select().from(auditLog).where(eq(auditLog.action, action));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    nobody = await userWithoutRoles(t.app);
  }, 120_000);
  afterAll(() => t?.close());

  it('lists the code systems with version, licence and the shipped codes', async () => {
    const res = await get(t.app, `${T}/systems`, admin);
    expect(res.status).toBe(200);
    const systems = res.body.data as TerminologySystem[];
    expect(systems.map((s) => s.systemKey)).toEqual(['DRUG', 'ICD10', 'ICD9CM3', 'LOINC']);
    const icd = systems.find((s) => s.systemKey === 'ICD10')!;
    expect(icd).toMatchObject({ domain: 'disease', conceptCount: 1824, localCount: 0 });
    expect(icd.licence).toMatch(/MIT/);
    expect(icd.loadedAt).not.toBeNull();
    expect(systems.find((s) => s.systemKey === 'LOINC')).toMatchObject({
      conceptCount: 18,
      version: expect.stringMatching(/^2\.83/),
    });
    expect(systems.find((s) => s.systemKey === 'ICD9CM3')).toMatchObject({ conceptCount: 0, loadedAt: null });
    expect((await audits('terminology.seed')).length).toBe(1);
  });

  it('finds codes by code, code prefix, Chinese word and pinyin initials, best match first', async () => {
    const exact = await searchFor('e11');
    expect(exact[0]).toMatchObject({ code: 'E11', match: 'codeExact', displayZh: '非胰岛素依赖型糖尿病' });
    const prefix = await searchFor('E1');
    expect(prefix.map((h) => h.code).slice(0, 3)).toEqual(['E10', 'E11', 'E12']);
    expect(prefix.every((h) => h.match === 'codePrefix')).toBe(true);

    const word = await searchFor('糖尿病');
    expect(word.length).toBeGreaterThan(3);
    expect(word.map((h) => h.match)).toEqual([...word.map((h) => h.match)].sort((a, b) => rank(a) - rank(b)));
    expect(word.some((h) => h.code === 'E11' && h.match === 'nameContains')).toBe(true);

    const exactName = await searchFor('霍乱');
    expect(exactName[0]).toMatchObject({ code: 'A00', match: 'nameExact' });
    const namePrefix = await searchFor('霍');
    expect(namePrefix[0]!.match).toBe('namePrefix');

    const pinyin = await searchFor('hl');
    expect(pinyin.find((h) => h.code === 'A00')).toMatchObject({ match: 'pinyin', pinyin: 'hl' });

    const lab = await searchFor('血红蛋白', '&system=LOINC');
    expect(lab[0]).toMatchObject({ code: '718-7', systemKey: 'LOINC', match: 'nameExact' });
    expect(lab.every((h) => h.systemKey === 'LOINC')).toBe(true);
    expect(await searchFor('%')).toEqual([]);
    expect((await get(t.app, `${T}/concepts?q=`, admin)).status).toBe(400);
  });

  it('shows a concept with its ancestors, its children and the system', async () => {
    const res = await get(t.app, `${T}/concept?system=ICD10&code=E11`, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data as ConceptDetail;
    expect(d.ancestors.map((a) => a.code)).toEqual(['E00-E90', 'E10-E14']);
    expect(d.level).toBe(3);
    const block = (await get(t.app, `${T}/concept?system=ICD10&code=E10-E14`, admin)).body
      .data as ConceptDetail;
    expect(block.children.map((c) => c.code)).toEqual(['E10', 'E11', 'E12', 'E13', 'E14']);
    expect(block.system.systemKey).toBe('ICD10');
    const missing = await get(t.app, `${T}/concept?system=ICD10&code=ZZ9`, admin);
    expect(missing.status).toBe(404);
  });

  it('adds a local extension code under a parent, audited, visible only to its hospital', async () => {
    const res = await post(
      t.app,
      `${T}/local-codes/disease`,
      {
        parentCode: 'E11',
        code: 'E11.9x01',
        displayZh: '2型糖尿病伴血糖控制不佳',
        synonyms: ['糖尿病控制差'],
      },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ local: true, level: 4, parentCode: 'E11', pinyin: '2xtnbbxtkzbj' });
    const d = (await get(t.app, `${T}/concept?system=ICD10&code=E11.9x01`, admin)).body.data as ConceptDetail;
    expect(d.synonyms).toEqual(['糖尿病控制差']);
    expect(d.ancestors.map((a) => a.code)).toEqual(['E00-E90', 'E10-E14', 'E11']);
    const parent = (await get(t.app, `${T}/concept?system=ICD10&code=E11`, admin)).body.data as ConceptDetail;
    expect(parent.children.map((c) => c.code)).toContain('E11.9x01');
    const bySynonym = await searchFor('控制差');
    expect(bySynonym[0]).toMatchObject({
      code: 'E11.9x01',
      matchedSynonym: '糖尿病控制差',
      match: 'nameContains',
    });
    const [a] = await audits('terminology.localCode.add');
    expect(a?.after).toMatchObject({ systemKey: 'ICD10', code: 'E11.9x01', parentCode: 'E11' });

    // The other hospital neither sees it nor counts it.
    expect((await searchFor('控制差', '', other.key)).length).toBe(0);
    expect((await get(t.app, `${T}/concept?system=ICD10&code=E11.9x01`, other.key)).status).toBe(404);
    const systems = (await get(t.app, `${T}/systems`, admin)).body.data as TerminologySystem[];
    expect(systems.find((s) => s.systemKey === 'ICD10')!.localCount).toBe(1);
    // ...and may use the same code for its own meaning.
    const theirs = await post(
      t.app,
      `${T}/local-codes/disease`,
      { parentCode: 'E11', code: 'E11.9x01', displayZh: '别的意思' },
      other.key,
    );
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  });

  it('never overwrites a standard code (409), refuses bad input (400), and changes nothing', async () => {
    const before = await t.app.db
      .select()
      .from(terminologyConcepts)
      .where(eq(terminologyConcepts.code, 'E11'));
    const clash = await post(
      t.app,
      `${T}/local-codes/disease`,
      { parentCode: 'E10-E14', code: 'e11', displayZh: '我的糖尿病' },
      admin,
    );
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/已有标准编码 e11（非胰岛素依赖型糖尿病）.*不能覆盖标准编码/);
    const again = await post(
      t.app,
      `${T}/local-codes/disease`,
      { code: 'E11.9x01', displayZh: '重复' },
      admin,
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/本院已有扩展编码/);
    const noParent = await post(
      t.app,
      `${T}/local-codes/disease`,
      { parentCode: 'Q99.9', code: 'X1', displayZh: '无' },
      admin,
    );
    expect(noParent.status).toBe(400);
    expect(noParent.body.message).toMatch(/parentCode/);
    const badCode = await post(t.app, `${T}/local-codes/lab`, { code: '中文', displayZh: '无' }, admin);
    expect(badCode.status).toBe(400);
    expect(badCode.body.message).toMatch(/code/);
    const blank = await post(t.app, `${T}/local-codes/lab`, { code: 'L1', displayZh: ' ' }, admin);
    expect(blank.status).toBe(400);
    const after = await t.app.db
      .select()
      .from(terminologyConcepts)
      .where(eq(terminologyConcepts.code, 'E11'));
    expect(after).toEqual(before);
    expect(
      await t.app.db
        .select()
        .from(terminologyConcepts)
        .where(and(eq(terminologyConcepts.code, 'X1'))),
    ).toEqual([]);
    // A code system without a shipped list takes local codes at the top.
    const op = await post(
      t.app,
      `${T}/local-codes/surgery`,
      { code: '51.2301', displayZh: '腹腔镜下胆囊切除术' },
      admin,
    );
    expect(op.status, JSON.stringify(op.body)).toBe(200);
    expect((await searchFor('fqjxdn', '&system=ICD9CM3'))[0]).toMatchObject({
      code: '51.2301',
      match: 'pinyin',
    });
  });

  it('loads a full list from CSV all or nothing, with a row report, retiring codes left out', async () => {
    const url = `${T}/import`;
    const bad = await post(
      t.app,
      url,
      {
        systemKey: 'DRUG',
        version: '2024',
        fileName: 'drugs.csv',
        text: 'code,display_zh,parent_code\nB01,抗血栓形成药,\nB01AC06,阿司匹林,B01\nB01AC06,重复,B01\n,无编码,\nX9,找不到上级,Q\n',
      },
      admin,
    );
    expect(bad.status, JSON.stringify(bad.body)).toBe(200);
    const report = bad.body.data as ImportReport;
    expect(report).toMatchObject({ stored: false, total: 5, inserted: 0, faultCount: 3 });
    expect(report.faults.map((f) => [f.row, f.field])).toEqual([
      [3, 'code'],
      [4, 'code'],
      [5, 'parent_code'],
    ]);
    expect((await searchFor('阿司匹林')).length).toBe(0);

    const good = await post(
      t.app,
      url,
      {
        systemKey: 'DRUG',
        version: '2024',
        fileName: 'drugs.csv',
        text: 'code,display_zh,display_en,parent_code,synonyms\nB01,抗血栓形成药,Antithrombotic agents,,\nB01AC06,阿司匹林,Aspirin,B01,乙酰水杨酸|拜阿司匹灵\nC10AA05,阿托伐他汀,Atorvastatin,,\n',
      },
      admin,
    );
    expect(good.body.data).toMatchObject({ stored: true, total: 3, inserted: 3, updated: 0 });
    const aspirin = (await get(t.app, `${T}/concept?system=DRUG&code=B01AC06`, admin)).body
      .data as ConceptDetail;
    expect(aspirin).toMatchObject({ level: 2, displayEn: 'Aspirin', synonyms: ['乙酰水杨酸', '拜阿司匹灵'] });
    expect((await searchFor('yxsys'))[0]).toMatchObject({ code: 'B01AC06', matchedSynonym: '乙酰水杨酸' });

    const next = await post(
      t.app,
      url,
      {
        systemKey: 'DRUG',
        version: '2025',
        fileName: 'drugs.csv',
        text: 'code,display_zh\nB01,抗血栓形成药\nB01AC06,阿司匹林肠溶片\n',
      },
      admin,
    );
    expect(next.body.data).toMatchObject({ stored: true, inserted: 0, updated: 2 });
    const atorva = (await get(t.app, `${T}/concept?system=DRUG&code=C10AA05`, admin)).body
      .data as ConceptDetail;
    expect(atorva.retired).toBe(true);
    expect((await searchFor('阿托伐他汀')).length).toBe(0);
    const systems = (await get(t.app, `${T}/systems`, admin)).body.data as TerminologySystem[];
    expect(systems.find((s) => s.systemKey === 'DRUG')!.version).toBe('2025');
    const imports = await audits('terminology.import');
    expect(imports.at(-1)?.after).toMatchObject({ version: '2025', retired: 1 });

    const missingColumn = await post(
      t.app,
      url,
      { systemKey: 'DRUG', version: '1', fileName: 'x.csv', text: 'code,name\nA,甲\n' },
      admin,
    );
    expect(missingColumn.status).toBe(400);
    expect(missingColumn.body.message).toMatch(/display_zh/);
  });

  it('answers terminology/app (and erminology/app) lookups, to a free-access terminology link too', async () => {
    for (const path of ['/api/v0.1/terminology/app', '/api/v0.1/erminology/app']) {
      const res = await post(
        t.app,
        path,
        { items: [{ system: 'ICD10', code: 'A00' }, { term: '血糖' }, { system: 'ICD10', code: 'ZZZ' }] },
        admin,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data[0]).toMatchObject({
        index: 0,
        found: true,
        concepts: [{ code: 'A00', displayZh: '霍乱' }],
      });
      expect(res.body.data[1].concepts[0]).toMatchObject({ code: '2339-0', match: 'nameExact' });
      expect(res.body.data[2]).toMatchObject({ found: false, concepts: [] });
    }
    const empty = await post(t.app, `${T}/app`, { items: [{ system: 'ICD10' }] }, admin);
    expect(empty.status).toBe(400);
    const free = await freeAccessKey(t.app, admin, { scopeKind: 'term', objectId: 'view' });
    expect((await get(t.app, `${T}/concepts?q=E11`, free)).body.data[0].code).toBe('E11');
    expect(
      (await post(t.app, `${T}/local-codes/disease`, { code: 'Q1', displayZh: '甲' }, free)).status,
    ).toBe(403);
  });

  it('answers FHIR R4 CodeSystem/$lookup from the same store', async () => {
    const url = `/api/v0.1/fhir/CodeSystem/$lookup?system=${encodeURIComponent('http://hl7.org/fhir/sid/icd-10-cn')}&code=E11`;
    const res = await t.app.inject({ method: 'GET', url, headers: { WeAppAuthorization: admin } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/fhir\+json/);
    const p = res.json() as {
      resourceType: string;
      parameter: Array<{
        name: string;
        valueString?: string;
        part?: Array<{ name: string; valueCode?: string }>;
      }>;
    };
    expect(p.resourceType).toBe('Parameters');
    expect(p.parameter.find((x) => x.name === 'display')?.valueString).toBe('非胰岛素依赖型糖尿病');
    const props = p.parameter
      .filter((x) => x.name === 'property')
      .map((x) => x.part?.map((y) => y.valueCode).join('='));
    expect(props).toContain('parent=E10-E14');
    expect(props).toContain('child=E11.9x01');
    const unknown = await download(t.app, '/api/v0.1/fhir/CodeSystem/$lookup?system=urn:x&code=E11', admin);
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses writes to a user without the function (403)', async () => {
    expect((await post(t.app, `${T}/local-codes/drug`, { code: 'D1', displayZh: '甲' }, nobody)).status).toBe(
      403,
    );
    const imp = await post(
      t.app,
      `${T}/import`,
      { systemKey: 'DRUG', version: '1', fileName: 'x.csv', text: 'code,display_zh\nA,甲\n' },
      nobody,
    );
    expect(imp.status).toBe(403);
    expect((await get(t.app, `${T}/systems`)).status).toBe(401);
  });
});

const ORDER = ['codeExact', 'codePrefix', 'nameExact', 'namePrefix', 'nameContains', 'pinyin'];
const rank = (m: string) => ORDER.indexOf(m);
