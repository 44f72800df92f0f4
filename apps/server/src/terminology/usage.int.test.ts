import type { ConceptDetailFull } from '@crdp/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, codingMappings } from '../db/schema/index.js';
import { mapE11ToOmop } from '../omop/test/fixtures.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { freeAccessKey, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * The terminology browser's concept detail (issue 19): its mappings to other systems (a local code
 * to its standard ancestor, ICD-10 to the OMOP concept of this hospital's OMOP maps) and where this
 * hospital's data uses it, as recorded at the source and as the coding area mapped it, with rows
 * and patients. On the embedded database and on PostgreSQL when DATABASE_URL is set.
 */
describe('concept mappings and use in the hospital data', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  const T = '/api/v0.1/terminology';
  const detail = async (code: string, key = admin) => {
    const r = await get(t.app, `${T}/concept?system=ICD10&code=${encodeURIComponent(code)}`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as ConceptDetailFull;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    expect(
      (
        await post(
          t.app,
          `${T}/local-codes/disease`,
          { parentCode: 'E11', code: 'E11.9x55', displayZh: '本院2型糖尿病扩展' },
          admin,
        )
      ).status,
    ).toBe(200);
    const patient = async (mrn: string, rows: Array<{ icd10: string; name: string }>) => {
      const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `术语${mrn}`, gender: 1 }, admin);
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      for (const row of rows) {
        const r = await post(
          t.app,
          `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
          { table: 'diagnoses', row: { ...row, diagnosedAt: '2024-01-02T08:00:00Z' } },
          admin,
        );
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
    };
    // TU1 carries E11 and the local code under it; TU2 only the text 糖尿病; TU3 another code.
    await patient('TU1', [
      { icd10: 'E11', name: '2型糖尿病' },
      { icd10: 'E11.9x55', name: '糖尿病' },
    ]);
    await patient('TU2', [{ icd10: '', name: '糖尿病' }]);
    await patient('TU3', [{ icd10: 'I10', name: '高血压' }]);
    // The coding area mapped the local term 糖尿病 to the local code.
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    await t.app.db.insert(codingMappings).values({
      appId: demo!.appId,
      kind: 'disease',
      term: '糖尿病',
      systemKey: 'ICD10',
      code: 'E11.9x55',
      displayZh: '本院2型糖尿病扩展',
      how: 'search',
    });
    await mapE11ToOmop(t.app, admin);
  }, 120_000);
  afterAll(() => t?.close());

  it('maps a standard code to its OMOP concept and counts the rows and patients under it', async () => {
    const e11 = await detail('E11');
    expect(e11.mappings).toEqual([
      {
        relation: 'equivalent',
        system: 'OMOP',
        systemUri: 'https://fhir-terminology.ohdsi.org',
        code: '201826',
        display: 'Type 2 diabetes mellitus',
      },
    ]);
    expect(e11.usage).toEqual({
      table: 'diagnoses',
      // As recorded: E11 itself once (TU1); with E11.9x55 under it, two rows of one patient.
      recordedRows: 1,
      recordedPatients: 1,
      recordedRowsBelow: 2,
      recordedPatientsBelow: 1,
      // As coded: nothing mapped to E11 itself; 糖尿病 → E11.9x55 under it, two rows, two patients.
      codedRows: 0,
      codedPatients: 0,
      codedRowsBelow: 2,
      codedPatientsBelow: 2,
      localTerms: [],
      localTermCount: 0,
    });
  });

  it('maps a local code to its standard ancestor and names the local terms coded to it', async () => {
    const local = await detail('E11.9x55');
    expect(local.mappings).toEqual([
      {
        relation: 'wider',
        system: 'ICD10',
        systemUri: local.system.uri,
        code: 'E11',
        display: '非胰岛素依赖型糖尿病',
      },
    ]);
    expect(local.usage).toMatchObject({
      recordedRows: 1,
      recordedPatients: 1,
      codedRows: 2,
      codedPatients: 2,
      localTerms: [{ term: '糖尿病', rows: 2 }],
      localTermCount: 1,
    });
    const unused = await detail('E14');
    expect(unused.mappings).toEqual([]);
    expect(unused.usage).toMatchObject({ recordedRowsBelow: 0, codedRowsBelow: 0, localTerms: [] });
  });

  it('counts only the reader’s hospital, also through a free-access term link', async () => {
    const there = await detail('E11', other.key);
    expect(there.mappings).toEqual([]);
    expect(there.usage).toMatchObject({ recordedRowsBelow: 0, codedRowsBelow: 0 });
    const link = await freeAccessKey(t.app, admin, { scopeKind: 'term', objectId: 'view' });
    expect((await detail('E11', link)).usage.recordedRowsBelow).toBe(2);
  });
});
