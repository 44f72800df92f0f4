import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Data-element subscription: a data steward publishes a data element; a researcher subscribes;
 * a new version sends the researcher a `dataElement.published` notice (the header's red icon),
 * the updates list what changed between the version read and the new one, and reading them
 * clears the notice. Checked on the embedded database and on PostgreSQL.
 */
describe('data elements', () => {
  let t: TestApp;
  let steward: string;
  let reader: string;
  let other: { appId: number; key: string };
  let id: number;
  const P = '/api/v0.1/data-elements';
  const first = {
    code: 'ALT_BASELINE',
    definition: {
      name: '基线 ALT',
      type: 'number',
      unit: 'U/L',
      derivation: 'latest lab.value where code = "ALT" before filing_date',
      description: '入组前最近一次 ALT',
    },
    note: '首版',
  };
  /** The second version's definition: the unit changed, the derivation limited to 180 days. */
  const IU = {
    ...first.definition,
    unit: 'IU/L',
    derivation: `${first.definition.derivation} within 180 days`,
  };

  beforeAll(async () => {
    t = await startTestApp();
    steward = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    // A subscriber who may read and subscribe, not publish.
    reader = await demoUserWith(t.app, 'elementreader', [
      'DataElementSubscribe.query',
      'DataElementSubscribe.get',
    ]);
  }, 120_000);
  afterAll(() => t?.close());

  const flagOf = async (key: string) =>
    (
      (await get(t.app, '/api/v0.1/notices', key)).body.data.items as {
        kind: string;
        readAt: string | null;
      }[]
    ).some((n) => n.kind === 'dataElement.published' && !n.readAt);

  it('a steward publishes an element and a reader subscribes', async () => {
    const made = await post(t.app, P, first, steward);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    id = made.body.data.id;
    expect(made.body.data).toMatchObject({ version: 1, subscribed: false, subscribers: 0 });
    expect((await post(t.app, P, first, steward)).status).toBe(409);
    const sub = await post(t.app, `${P}/${id}/subscribe`, {}, reader);
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data).toMatchObject({ subscribed: true, seenVersion: 1, subscribers: 1 });
    expect((await get(t.app, `${P}/updates`, reader)).body.data.items).toEqual([]);
    expect(await flagOf(reader)).toBe(false);
  });

  it('a new version lights the subscriber’s flag, lists the changes, and reading clears it', async () => {
    const v2 = await post(t.app, `${P}/${id}/versions`, { definition: IU, note: '单位改为 IU/L' }, steward);
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.data.version).toBe(2);
    expect(await flagOf(reader)).toBe(true);
    expect(await flagOf(steward)).toBe(false);
    const updates = await get(t.app, `${P}/updates`, reader);
    expect(updates.body.data.items).toHaveLength(1);
    expect(updates.body.data.items[0]).toMatchObject({
      code: 'ALT_BASELINE',
      fromVersion: 1,
      toVersion: 2,
      notes: ['v2: 单位改为 IU/L'],
    });
    expect(updates.body.data.items[0].changes.map((c: { field: string }) => c.field)).toEqual([
      'unit',
      'derivation',
    ]);
    const read = await post(t.app, `${P}/updates/read`, {}, reader);
    expect(read.body.data).toEqual({ elements: 1, notices: 1 });
    expect(await flagOf(reader)).toBe(false);
    expect((await get(t.app, `${P}/updates`, reader)).body.data.items).toEqual([]);
    const detail = await get(t.app, `${P}/${id}`, reader);
    expect(detail.body.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const audits = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'data_element'), eq(auditLog.entityId, String(id))));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'dataElement.add',
      'dataElement.publish',
      'dataElement.subscribe',
    ]);
  });

  it('refuses bad input with a 400 naming the field, and an unchanged version', async () => {
    const bad = await post(t.app, P, { ...first, code: 'a b' }, steward);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('code');
    const type = await post(
      t.app,
      P,
      { ...first, code: 'X1', definition: { ...first.definition, type: 'blob' } },
      steward,
    );
    expect(type.status).toBe(400);
    const same = await post(t.app, `${P}/${id}/versions`, { definition: IU }, steward);
    expect(same.status).toBe(400);
    expect(JSON.stringify(same.body)).toContain('body.definition');
  });

  it('enforces each function and keeps apps apart', async () => {
    expect((await post(t.app, P, { ...first, code: 'R1' }, reader)).status).toBe(403);
    expect((await post(t.app, `${P}/${id}/versions`, { definition: first.definition }, reader)).status).toBe(
      403,
    );
    expect((await del(t.app, `${P}/${id}`, reader)).status).toBe(403);
    expect((await get(t.app, P, other.key)).body.data.items).toEqual([]);
    expect((await get(t.app, `${P}/${id}`, other.key)).status).toBe(404);
    expect((await post(t.app, `${P}/${id}/subscribe`, {}, other.key)).status).toBe(404);
    expect((await del(t.app, `${P}/${id}/subscribe`, reader)).body.data.subscribed).toBe(false);
    expect((await del(t.app, `${P}/${id}`, steward)).status).toBe(200);
  });
});
