import type { FhirParameters, FhirValueSet } from '@crdp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapE11ToOmop } from '../omop/test/fixtures.js';
import { freeAccessKey, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * FHIR R4 terminology operations (issue 19): ValueSet/$expand and ConceptMap/$translate next to
 * CodeSystem/$lookup, errors as OperationOutcome; a free `term` link may read them. On the
 * embedded database and on PostgreSQL when DATABASE_URL is set.
 */
describe('FHIR terminology operations', () => {
  let t: TestApp;
  let admin: string;
  const ICD = 'http://hl7.org/fhir/sid/icd-10-cn';
  const OMOP = 'https://fhir-terminology.ohdsi.org';
  const fhir = async (path: string, key: string | undefined = admin) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/fhir/${path}`,
      headers: key ? { WeAppAuthorization: key } : {},
    });
    return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() };
  };
  const q = (o: Record<string, string | number>) =>
    Object.entries(o)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join('&');
  const matches = (p: FhirParameters) =>
    p.parameter
      .filter((x) => x.name === 'match')
      .map((m) => ({
        equivalence: m.part?.find((x) => x.name === 'equivalence')?.valueCode,
        ...m.part?.find((x) => x.name === 'concept')?.valueCoding,
      }));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  }, 120_000);
  afterAll(() => t?.close());

  it('expands a code system: all codes paged, and with a filter', async () => {
    const all = await fhir(`ValueSet/$expand?${q({ url: ICD, count: 5 })}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.type).toMatch(/application\/fhir\+json/);
    const vs = all.body as FhirValueSet;
    expect(vs).toMatchObject({ resourceType: 'ValueSet', url: ICD, status: 'active' });
    expect(vs.expansion.total).toBe(1824);
    expect(vs.expansion.contains).toHaveLength(5);
    expect(vs.expansion.contains[0]).toMatchObject({ system: ICD, code: expect.any(String) });
    const page2 = (await fhir(`ValueSet/$expand?${q({ url: `${ICD}?fhir_vs`, count: 5, offset: 5 })}`))
      .body as FhirValueSet;
    expect(page2.expansion.offset).toBe(5);
    expect(page2.expansion.contains[0]!.code > vs.expansion.contains[4]!.code).toBe(true);

    const filtered = (await fhir(`ValueSet/$expand?${q({ url: ICD, filter: '糖尿病', count: 100 })}`))
      .body as FhirValueSet;
    expect(filtered.expansion.total).toBeGreaterThan(3);
    expect(filtered.expansion.contains.some((c) => c.code === 'E11')).toBe(true);
    expect(filtered.expansion.parameter).toContainEqual({ name: 'filter', valueString: '糖尿病' });
    const byCode = (await fhir(`ValueSet/$expand?${q({ url: ICD, filter: 'e1', count: 0 })}`))
      .body as FhirValueSet;
    expect(byCode.expansion.total).toBeGreaterThan(1);
    expect(byCode.expansion.contains).toEqual([]);
    const wild = (await fhir(`ValueSet/$expand?${q({ url: ICD, filter: '%' })}`)).body as FhirValueSet;
    expect(wild.expansion.total).toBe(0);
  });

  it('answers bad input with an OperationOutcome naming the problem', async () => {
    const unknown = await fhir(`ValueSet/$expand?${q({ url: 'urn:nothing' })}`);
    expect(unknown.status).toBe(404);
    expect(unknown.type).toMatch(/application\/fhir\+json/);
    expect(unknown.body).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'not-found', diagnostics: expect.stringContaining('urn:nothing') }],
    });
    const badCount = await fhir(`ValueSet/$expand?${q({ url: ICD, count: 5000 })}`);
    expect(badCount.status).toBe(400);
    expect(badCount.body.resourceType).toBe('OperationOutcome');
    expect(badCount.body.issue[0]).toMatchObject({ code: 'invalid', expression: ['querystring.count'] });
    expect(badCount.body.issue[0].diagnostics).toMatch(/count/);
    const noUrl = await fhir('ValueSet/$expand');
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.issue[0].diagnostics).toMatch(/url/);
    const noTarget = await fhir(`ConceptMap/$translate?${q({ system: ICD, code: 'E11' })}`);
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.issue[0].diagnostics).toMatch(/targetsystem/);
    const loincToIcd = await fhir(
      `ConceptMap/$translate?${q({ system: 'http://loinc.org', code: '718-7', targetsystem: ICD })}`,
    );
    expect(loincToIcd.status).toBe(400);
    expect(loincToIcd.body.issue[0].diagnostics).toMatch(/targetsystem/);
    const lookupMissing = await fhir(`CodeSystem/$lookup?${q({ system: 'urn:x', code: 'E11' })}`);
    expect(lookupMissing.status).toBe(404);
    expect(lookupMissing.body.resourceType).toBe('OperationOutcome');
    const signedOut = await fhir(`ValueSet/$expand?${q({ url: ICD })}`, '');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.issue[0].code).toBe('login');
  });

  it('translates a local code to its standard parent and ICD-10 ↔ OMOP through the OMOP maps', async () => {
    const local = await post(
      t.app,
      '/api/v0.1/terminology/local-codes/disease',
      { parentCode: 'E11', code: 'E11.9x99', displayZh: '本院2型糖尿病扩展' },
      admin,
    );
    expect(local.status, JSON.stringify(local.body)).toBe(200);
    const up = (
      await fhir(`ConceptMap/$translate?${q({ system: ICD, code: 'E11.9x99', targetsystem: ICD })}`)
    ).body as FhirParameters;
    expect(up.parameter[0]).toEqual({ name: 'result', valueBoolean: true });
    expect(matches(up)).toEqual([
      { equivalence: 'wider', system: ICD, code: 'E11', display: '非胰岛素依赖型糖尿病' },
    ]);

    const none = (await fhir(`ConceptMap/$translate?${q({ system: ICD, code: 'E11', targetsystem: OMOP })}`))
      .body as FhirParameters;
    expect(none.parameter[0]).toEqual({ name: 'result', valueBoolean: false });
    await mapE11ToOmop(t.app, admin);
    const there = (await fhir(`ConceptMap/$translate?${q({ system: ICD, code: 'e11', targetsystem: OMOP })}`))
      .body as FhirParameters;
    expect(matches(there)).toEqual([
      { equivalence: 'equivalent', system: OMOP, code: '201826', display: 'Type 2 diabetes mellitus' },
    ]);
    const back = (
      await fhir(`ConceptMap/$translate?${q({ system: OMOP, code: '201826', targetsystem: ICD })}`)
    ).body as FhirParameters;
    expect(matches(back)).toEqual([
      { equivalence: 'equivalent', system: ICD, code: 'E11', display: '非胰岛素依赖型糖尿病' },
    ]);
    const notNumber = await fhir(
      `ConceptMap/$translate?${q({ system: OMOP, code: 'E11', targetsystem: ICD })}`,
    );
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.issue[0].expression).toEqual(['code']);
  });

  it('lets a free terminology link read them, and a free CRF link not', async () => {
    const term = await freeAccessKey(t.app, admin, { scopeKind: 'term', objectId: 'view' });
    expect((await fhir(`ValueSet/$expand?${q({ url: ICD, count: 1 })}`, term)).status).toBe(200);
    expect(
      (await fhir(`ConceptMap/$translate?${q({ system: ICD, code: 'E11', targetsystem: ICD })}`, term))
        .status,
    ).toBe(200);
    const crf = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: '1' });
    const refused = await fhir(`ValueSet/$expand?${q({ url: ICD, count: 1 })}`, crf);
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
  });
});
