import type { Dictionary, DictionaryEntry, HospitalUnit, ImportReport } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, dictionaryEntries } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { download, get, post, send as sendAs, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Reference data (数据采集 → 医院信息维护, 基础字典维护, 字典管理): the hospital's structure and its
 * code tables, checked the way a data manager uses them, on the embedded database and on
 * PostgreSQL when DATABASE_URL is set. Every write is audited and stays in its own app.
 */
describe('reference data: hospital structure and dictionaries', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };

  const send = (method: 'PATCH' | 'DELETE', url: string, payload?: unknown, key = admin) =>
    sendAs(method, t.app, url, payload, key);
  const audits = (action: string) => t.app.db.select().from(auditLog).where(eq(auditLog.action, action));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
  }, 120_000);
  afterAll(() => t?.close());

  describe('hospital structure (医院信息维护)', () => {
    const units: Record<string, HospitalUnit> = {};
    const add = async (body: object, key = admin) => post(t.app, '/api/v0.1/hospital-units', body, key);

    it('keeps campuses, departments under campuses and wards under departments, with pinyin initials', async () => {
      for (const [k, body] of Object.entries({
        campus: { kind: 'campus', code: 'C01', name: '本部院区' },
        gi: { kind: 'department', code: 'D0301', name: '消化内科', parentId: null },
        hep: { kind: 'department', code: 'D0302', name: '肝病科' },
      })) {
        const res = await add(body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        units[k] = res.body.data;
      }
      expect(units.gi!.pinyin).toBe('xhnk');
      const moved = await send('PATCH', `/api/v0.1/hospital-units/${units.gi!.id}`, {
        parentId: units.campus!.id,
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.data.parentId).toBe(units.campus!.id);
      const ward = await add({ kind: 'ward', code: 'W0301', name: '消化内科一病区', parentId: units.gi!.id });
      expect(ward.status, JSON.stringify(ward.body)).toBe(200);
      units.ward = ward.body.data;

      const list = await get(t.app, '/api/v0.1/hospital-units', admin);
      expect(list.body.data.items.map((u: HospitalUnit) => u.code)).toEqual([
        'C01',
        'D0301',
        'D0302',
        'W0301',
      ]);
      const byPinyin = await get(t.app, '/api/v0.1/hospital-units?keyword=xhnk', admin);
      expect(byPinyin.body.data.items.map((u: HospitalUnit) => u.name)).toEqual([
        '消化内科',
        '消化内科一病区',
      ]);
      expect((await audits('hospitalUnit.add')).length).toBe(4);
      const [edit] = await audits('hospitalUnit.edit');
      expect(edit?.before).toMatchObject({ parentId: null });
      expect(edit?.after).toMatchObject({ parentId: units.campus!.id });
    });

    it('refuses a structure that does not hold together, naming the problem, and changes nothing', async () => {
      const cases: Array<[object, string, RegExp]> = [
        [{ kind: 'ward', code: 'W9', name: '无主病区' }, 'parentId', /病区必须属于一个科室/],
        [
          { kind: 'ward', code: 'W9', name: '错层病区', parentId: units.campus!.id },
          'parentId',
          /病区的上级必须是科室/,
        ],
        [
          { kind: 'campus', code: 'C9', name: '子院区', parentId: units.campus!.id },
          'parentId',
          /院区不属于其他机构/,
        ],
        [{ kind: 'department', code: 'd0301', name: '重复', parentId: null }, 'code', /已被「消化内科」使用/],
        [{ kind: 'department', code: 'D 9', name: '空格编码' }, 'code', /code/],
        [{ kind: 'department', code: 'D9', name: 'a\u0000b' }, 'name', /name/],
        [{ kind: 'department', code: 'D9', name: '外院上级', parentId: 999_999 }, 'parentId', /不存在/],
      ];
      const before = (await get(t.app, '/api/v0.1/hospital-units', admin)).body.data.items.length;
      for (const [body, field, words] of cases) {
        const res = await add(body);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(JSON.stringify(res.body)).toContain(field);
        expect(res.body.message).toMatch(words);
      }
      expect((await get(t.app, '/api/v0.1/hospital-units', admin)).body.data.items.length).toBe(before);
    });

    it('counts the visits recorded under a department, by its name or its code', async () => {
      const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn: 'REF01', name: '周一', gender: 1 }, admin);
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      for (const department of ['消化内科', 'D0301', '肝病科'])
        expect(
          (
            await post(
              t.app,
              `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
              {
                table: 'visits',
                row: { kind: 'inpatient', department, admitAt: '2025-03-01T08:00:00+08:00' },
              },
              admin,
            )
          ).status,
        ).toBe(200);
      const items: HospitalUnit[] = (await get(t.app, '/api/v0.1/hospital-units', admin)).body.data.items;
      const visits = Object.fromEntries(items.map((u) => [u.code, u.visits]));
      expect(visits).toMatchObject({ C01: 0, D0301: 2, D0302: 1 });
    });

    it('keeps a unit that has units under it, and deletes an empty one', async () => {
      const refused = await send('DELETE', `/api/v0.1/hospital-units/${units.gi!.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('还有 1 个机构');
      expect((await send('DELETE', `/api/v0.1/hospital-units/${units.ward!.id}`)).status).toBe(200);
      expect((await send('DELETE', `/api/v0.1/hospital-units/${units.gi!.id}`)).status).toBe(200);
      const [gone] = await audits('hospitalUnit.delete');
      expect(gone?.before).toMatchObject({ code: 'W0301' });
    });

    it('shows another hospital nothing of this one, and lets it change nothing', async () => {
      expect((await get(t.app, '/api/v0.1/hospital-units', other.key)).body.data.items).toEqual([]);
      const res = await send(
        'PATCH',
        `/api/v0.1/hospital-units/${units.hep!.id}`,
        { name: '改名' },
        other.key,
      );
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('医院机构不存在');
      // A ward of theirs cannot hang under our department either.
      const theirs = await add(
        { kind: 'ward', code: 'W1', name: '外院病区', parentId: units.hep!.id },
        other.key,
      );
      expect(theirs.status).toBe(400);
    });
  });

  describe('basic dictionaries (基础字典维护)', () => {
    it('are there from the start, with their standard codes, and a new app gets its own once', async () => {
      // Made at start for the demo app: a read writes nothing (a bad request never changes data).
      const seeded = await audits('dictionary.seed');
      expect(seeded.length).toBe(1);
      expect(seeded[0]!.userId).toBeNull();
      const again = (await get(t.app, '/api/v0.1/basic-dictionaries', admin)).body.data.items as Dictionary[];
      expect(again.map((d) => d.code)).toEqual([
        'gender',
        'visit_kind',
        'specimen',
        'unit',
        'frequency',
        'route',
      ]);
      expect(again.every((d) => d.builtin)).toBe(true);
      const gender = again.find((d) => d.code === 'gender')!;
      expect(gender).toMatchObject({ name: '性别', entryCount: 4 });
      const entries = await get(t.app, `/api/v0.1/basic-dictionaries/${gender.id}/entries`, admin);
      expect(entries.body.data.items.map((e: DictionaryEntry) => [e.code, e.name, e.standardCode])).toEqual([
        ['0', '未知的性别', 'unknown'],
        ['1', '男性', 'male'],
        ['2', '女性', 'female'],
        ['9', '未说明的性别', 'other'],
      ]);
      // An app made after the start gets its own copy on its first read, once even when asked twice at once.
      const [a, b] = await Promise.all([
        get(t.app, '/api/v0.1/basic-dictionaries', other.key),
        get(t.app, '/api/v0.1/basic-dictionaries', other.key),
      ]);
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(b.status, JSON.stringify(b.body)).toBe(200);
      const theirs = (await get(t.app, '/api/v0.1/basic-dictionaries', other.key)).body.data
        .items as Dictionary[];
      expect(theirs).toHaveLength(6);
      expect(theirs.map((d) => d.id)).not.toContain(gender.id);
      expect((await audits('dictionary.seed')).length).toBe(2);
      expect((await get(t.app, `/api/v0.1/basic-dictionaries/${gender.id}/entries`, other.key)).status).toBe(
        404,
      );
    });

    it('lets the hospital edit its entries, but not delete a basic dictionary', async () => {
      const dicts = (await get(t.app, '/api/v0.1/basic-dictionaries', admin)).body.data.items as Dictionary[];
      const route = dicts.find((d) => d.code === 'route')!;
      const found = await get(t.app, `/api/v0.1/basic-dictionaries/${route.id}/entries?keyword=jnzs`, admin);
      expect(found.body.data.items.map((e: DictionaryEntry) => e.name)).toEqual(['肌内注射']);
      const bySynonym = await get(
        t.app,
        `/api/v0.1/basic-dictionaries/${route.id}/entries?keyword=静滴`,
        admin,
      );
      expect(bySynonym.body.data.items.map((e: DictionaryEntry) => e.code)).toEqual(['iv']);
      const iv = bySynonym.body.data.items[0] as DictionaryEntry;
      const edited = await send('PATCH', `/api/v0.1/basic-dictionaries/${route.id}/entries/${iv.id}`, {
        name: '静脉给药',
        synonyms: ['静推', '静滴', '输液'],
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.data).toMatchObject({ name: '静脉给药', pinyin: 'jmgy', standardCode: '47625008' });
      expect((await send('DELETE', `/api/v0.1/basic-dictionaries/${route.id}`)).status).toBe(404);
      const codes = await get(t.app, '/api/v0.1/dictionary-codes/route', admin);
      expect(codes.body.data.entries).toContainEqual({ code: 'iv', name: '静脉给药' });
    });
  });

  describe('the app’s own dictionaries (字典管理)', () => {
    let dict: Dictionary;
    const base = () => `/api/v0.1/dictionaries/${dict.id}`;

    it('makes a dictionary with a unique code and keeps entries with unique codes', async () => {
      const made = await post(
        t.app,
        '/api/v0.1/dictionaries',
        { code: 'his_department', name: 'HIS 科室', description: 'HIS 的科室代码', standardSystem: '' },
        admin,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      dict = made.body.data;
      const dup = await post(
        t.app,
        '/api/v0.1/dictionaries',
        { code: 'his_department', name: '又一个' },
        admin,
      );
      expect(dup.status).toBe(400);
      expect(dup.body.message).toContain('已被「HIS 科室」使用');
      const bad = await post(t.app, '/api/v0.1/dictionaries', { code: 'His-Dept', name: '大写' }, admin);
      expect(bad.status).toBe(400);
      const e = await post(t.app, `${base()}/entries`, { code: '0301', name: '消化内科门诊' }, admin);
      expect(e.status, JSON.stringify(e.body)).toBe(200);
      expect(e.body.data.pinyin).toBe('xhnkmz');
      const twice = await post(t.app, `${base()}/entries`, { code: '0301', name: '别的' }, admin);
      expect(twice.status).toBe(400);
      expect(twice.body.message).toContain('已是「消化内科门诊」');
      // The basic routes do not reach an app's own dictionary.
      expect((await get(t.app, `/api/v0.1/basic-dictionaries/${dict.id}/entries`, admin)).status).toBe(404);
    });

    it('imports a CSV all or nothing, naming each bad row', async () => {
      const count = async () =>
        (
          await t.app.db
            .select()
            .from(dictionaryEntries)
            .where(and(eq(dictionaryEntries.dictionaryId, dict.id)))
        ).length;
      const badCsv = [
        'code,name,synonyms,standard_code,enabled',
        '0302,肝病科门诊,肝病门诊|肝科,,1',
        ',无编码,,,1',
        '0303,感染科,,,maybe',
        '0302,重复行,,,1',
      ].join('\r\n');
      const refused = await post(
        t.app,
        `${base()}/entries/import`,
        { fileName: 'bad.csv', text: badCsv },
        admin,
      );
      expect(refused.status, JSON.stringify(refused.body)).toBe(200);
      const report = refused.body.data as ImportReport;
      expect(report).toMatchObject({ stored: false, total: 4, faultCount: 3 });
      expect(report.faults.map((f) => [f.row, f.field])).toEqual([
        [2, 'code'],
        [3, 'enabled'],
        [4, 'code'],
      ]);
      expect(report.faults[2]!.message).toContain('与第 1 行重复');
      expect(await count()).toBe(1);

      const good = [
        'code,name,synonyms,sort_order',
        '0301,消化内科门诊（新）,,10',
        '0302,肝病科门诊,肝病门诊|肝科,20',
      ].join('\n');
      const stored = await post(
        t.app,
        `${base()}/entries/import`,
        { fileName: 'good.csv', text: good },
        admin,
      );
      expect(stored.body.data).toMatchObject({ stored: true, total: 2, inserted: 1, updated: 1 });
      expect(await count()).toBe(2);
      const bySynonym = await get(t.app, `${base()}/entries?keyword=肝科`, admin);
      expect(bySynonym.body.data.items.map((x: DictionaryEntry) => x.code)).toEqual(['0302']);
      const [imported] = await audits('dictionary.import');
      expect(imported?.after).toMatchObject({ total: 2, inserted: 1, updated: 1 });

      const noHeader = await post(
        t.app,
        `${base()}/entries/import`,
        { fileName: 'x.csv', text: 'a,b\n1,2' },
        admin,
      );
      expect(noHeader.status).toBe(400);
      expect(noHeader.body.message).toContain('缺少列 code');
    });

    it('exports the entries as CSV with the spreadsheet formula guard', async () => {
      expect(
        (await post(t.app, `${base()}/entries`, { code: '0399', name: '=HYPERLINK("x")' }, admin)).status,
      ).toBe(200);
      const res = await download(t.app, `${base()}/entries/export`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const lines = res.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('code,name,pinyin,synonyms,standard_code,sort_order,enabled');
      expect(lines).toContain('0302,肝病科门诊,gbkmz,肝病门诊|肝科,,20,1');
      expect(lines.some((l) => l.startsWith('0399,"\'=HYPERLINK(""x"")"'))).toBe(true);
      expect((await audits('dictionary.export')).length).toBe(1);
    });

    it('lets another hospital neither see nor change it, and deletes it with its entries', async () => {
      expect((await get(t.app, '/api/v0.1/dictionaries', other.key)).body.data.items).toEqual([]);
      expect((await get(t.app, `${base()}/entries`, other.key)).status).toBe(404);
      expect((await send('DELETE', base(), undefined, other.key)).status).toBe(404);
      expect((await get(t.app, '/api/v0.1/dictionary-codes/his_department', other.key)).status).toBe(404);
      expect((await send('DELETE', base())).status).toBe(200);
      expect(
        await t.app.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.dictionaryId, dict.id)),
      ).toEqual([]);
      const [gone] = await audits('dictionary.delete');
      expect(gone?.before).toMatchObject({ code: 'his_department', entryCount: 3 });
    });
  });
});
