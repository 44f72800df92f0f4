import net from 'node:net';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hl7Messages, labResults, patients, visits } from '../../db/schema/index.js';
import { otherAppAdministrator } from '../../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { adt, oru, sendFrame, ZHANG_WEI } from './test/messages.js';

/**
 * A hospital's HIS and LIS send HL7 v2 messages over MLLP to the listener of an HL7 source: an
 * admission, a result with three observations, a repeat, a frame that is not HL7. Each message
 * is acknowledged only once stored; the processing job puts the patient, the visit and the lab
 * results into the CDR; processing again changes nothing; another app sees none of it.
 */
const msa = (m: Hl7Message) => ({
  code: m.getSegment('MSA')?.getField(1)?.toString(),
  controlId: m.getSegment('MSA')?.getField(2)?.toString(),
  text: m.getSegment('MSA')?.getField(3)?.toString(),
});

describe('HL7 v2 listener', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let sourceId: number;
  let port: number;
  let client: Hl7Client;
  const source = () => `collect:${sourceId}`;
  const send = async (text: string) =>
    msa(await client.sendAndWait(Hl7Message.parse(text), { timeoutMs: 10_000 }));
  const rows = (controlId: string) =>
    t.app.db
      .select()
      .from(hl7Messages)
      .where(and(eq(hl7Messages.sourceId, sourceId), eq(hl7Messages.controlId, controlId)));
  const cdr = async () => {
    const ps = await t.app.db.select().from(patients).where(eq(patients.source, source()));
    const vs = await t.app.db.select().from(visits).where(eq(visits.source, source()));
    const ls = await t.app.db
      .select()
      .from(labResults)
      .where(eq(labResults.source, source()))
      .orderBy(asc(labResults.itemCode));
    return { ps, vs, ls };
  };

  beforeAll(async () => {
    t = await startTestApp({ hl7Listen: false, hl7Host: '127.0.0.1' });
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    const added = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'HIS 消息接口', kind: 'hl7', config: { listenPort: 0 } },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    sourceId = added.body.data.id;
    port = await t.app.hl7.listen(sourceId, 0);
    client = new Hl7Client({ host: '127.0.0.1', port });
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('acknowledges an admission and a result only once they are stored, and a repeat once', async () => {
    const a01 = await send(adt('A01', { controlId: 'ADT-0001' }));
    expect(a01).toMatchObject({ code: 'AA', controlId: 'ADT-0001' });
    // Acknowledged means stored: the row is there before any processing.
    const [stored] = await rows('ADT-0001');
    expect(stored).toMatchObject({ type: 'ADT^A01' });
    expect(['stored', 'processed']).toContain(stored!.status);
    expect(stored!.raw).toContain('PID|1||H20260001');

    expect(await send(oru({ controlId: 'LAB-0001' }))).toMatchObject({ code: 'AA', controlId: 'LAB-0001' });
    // The LIS did not see the ACK and sends again: acknowledged, stored once.
    expect(await send(oru({ controlId: 'LAB-0001' }))).toMatchObject({ code: 'AA', controlId: 'LAB-0001' });
    expect(await rows('LAB-0001')).toHaveLength(1);
  });

  it('refuses a frame that is not HL7 and one without a control id with AR and the reason', async () => {
    const garbage = Hl7Message.parse(await sendFrame(port, 'hello, this is not HL7'));
    expect(msa(garbage).code).toBe('AR');
    expect(msa(garbage).text).toContain('not an HL7 v2 message');
    expect(garbage.getSegment('ERR')?.toString()).toContain('不是 HL7 v2 消息');

    const noId = Hl7Message.parse(
      await sendFrame(
        port,
        'MSH|^~\\&|HIS|BJ-HOSP|CRDP|CRDP|20260301083000||ADT^A01|||2.5\rPID|1||X1^^^HIS^MR',
      ),
    );
    expect(msa(noId)).toMatchObject({ code: 'AR', text: 'the message control id (MSH-10) is missing' });

    // After a bad frame the same connection goes on: the next message is read on its own.
    const socket = net.connect({ port, host: '127.0.0.1' });
    await new Promise((r) => socket.once('connect', r));
    const replies: string[] = [];
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.includes(0x1c)) {
        const end = buf.indexOf(0x1c);
        replies.push(buf.subarray(1, end).toString('utf8'));
        buf = buf.subarray(end + 2);
      }
    });
    const frame = (s: string) =>
      Buffer.concat([Buffer.from([0x0b]), Buffer.from(s), Buffer.from([0x1c, 0x0d])]);
    socket.write(frame('garbage'));
    for (let i = 0; i < 100 && replies.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    socket.write(frame(adt('A08', { controlId: 'ADT-0002' })));
    for (let i = 0; i < 100 && replies.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    expect(replies.map((r) => msa(Hl7Message.parse(r)))).toMatchObject([
      { code: 'AR' },
      { code: 'AA', controlId: 'ADT-0002' },
    ]);
    // Nothing of the refused frames was stored.
    const all = await t.app.db.select().from(hl7Messages).where(eq(hl7Messages.sourceId, sourceId));
    expect(all.map((m) => m.controlId).sort()).toEqual(['ADT-0001', 'ADT-0002', 'LAB-0001']);
  });

  it('answers AE and acknowledges nothing when the message cannot be stored', async () => {
    const m = Hl7Message.parse(adt('A01', { controlId: 'ADT-LOST' }));
    // A source that does not exist (deleted while the listener ran): the insert fails.
    const reply = await t.app.hl7.listeners.receive({ id: 2_000_000_000, appId: 1 }, m);
    expect(msa(reply)).toMatchObject({ code: 'AE', controlId: 'ADT-LOST' });
    expect(
      await t.app.db.select().from(hl7Messages).where(eq(hl7Messages.controlId, 'ADT-LOST')),
    ).toHaveLength(0);
  });

  it('puts the patient, the visit and the three results into the CDR, linked', async () => {
    await t.app.jobs.drain();
    const { ps, vs, ls } = await cdr();
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({
      mrn: ZHANG_WEI.id,
      sourceId: ZHANG_WEI.id,
      name: '张伟',
      gender: 1,
      nationalId: '110101196503120018',
      phone: '13800138000',
      address: '北京市北京市朝阳路1号',
    });
    expect(String(ps[0]!.birthDate)).toContain('1965-03-12');
    expect(vs).toHaveLength(1);
    expect(vs[0]).toMatchObject({
      patientId: ps[0]!.id,
      sourceId: 'V20260001',
      kind: 'inpatient',
      department: '心内科',
      // PV1-7 D001^李^明: the attending doctor, for record QC's per-doctor scores.
      doctor: '李明',
    });
    // 08:30 Beijing time.
    expect(vs[0]!.admitAt.toISOString()).toBe('2026-03-01T00:30:00.000Z');
    expect(vs[0]!.dischargeAt).toBeNull();
    expect(ls).toHaveLength(3);
    expect(ls.every((l) => l.patientId === ps[0]!.id && l.visitId === vs[0]!.id)).toBe(true);
    expect(ls.map((l) => [l.itemCode, l.itemName, l.valueNum, l.valueText, l.unit])).toEqual([
      ['ALT', '丙氨酸氨基转移酶', 56, '56', 'U/L'],
      ['AST', '天门冬氨酸氨基转移酶', 30, '30', 'U/L'],
      ['HBSAG', '乙肝表面抗原', null, '阴性', ''],
    ]);
    expect(ls[0]).toMatchObject({ refLow: 9, refHigh: 50, abnormalFlag: 'H', sourceId: 'LAB1001:ALT' });
    expect(ls[0]!.collectedAt.toISOString()).toBe('2026-03-02T01:30:00.000Z');
    // No OBX-14: the order's observation time (OBR-7).
    expect(ls[2]!.collectedAt.toISOString()).toBe('2026-03-02T01:00:00.000Z');
    const statuses = await t.app.db.select().from(hl7Messages).where(eq(hl7Messages.sourceId, sourceId));
    expect(statuses.every((m) => m.status === 'processed' && m.processedAt)).toBe(true);
    // Each row written has its change record, naming the source and the message that wrote it.
    const changes = await get(t.app, `/api/v0.1/collection/changes?sourceId=${sourceId}&size=50`, admin);
    expect(changes.status, JSON.stringify(changes.body)).toBe(200);
    const items = changes.body.data.items as Array<{
      table: string;
      op: string;
      runId: number | null;
      messageId: number;
      sourceName: string;
    }>;
    expect(items.map((c) => `${c.table}:${c.op}`).sort()).toEqual([
      'labResults:insert',
      'labResults:insert',
      'labResults:insert',
      'patients:insert',
      'visits:insert',
    ]);
    const ids = new Set(statuses.map((m) => m.id));
    expect(
      items.every((c) => c.runId === null && ids.has(c.messageId) && c.sourceName === 'HIS 消息接口'),
    ).toBe(true);
  });

  it('changes nothing when the same messages are processed again', async () => {
    const before = await cdr();
    await t.app.db.update(hl7Messages).set({ status: 'stored' }).where(eq(hl7Messages.sourceId, sourceId));
    const [m] = await t.app.db.select().from(hl7Messages).where(eq(hl7Messages.sourceId, sourceId)).limit(1);
    await t.app.hl7.kick({ id: sourceId, appId: m!.appId });
    await t.app.jobs.drain();
    const after = await cdr();
    expect(after).toEqual(before);
    // Nothing changed, so no change record either.
    const changes = await get(t.app, `/api/v0.1/collection/changes?sourceId=${sourceId}&size=50`, admin);
    expect(changes.body.data.total).toBe(5);
    const statuses = await t.app.db.select().from(hl7Messages).where(eq(hl7Messages.sourceId, sourceId));
    expect(statuses.map((m) => m.status)).toEqual(['processed', 'processed', 'processed']);
  });

  it('records the discharge without erasing what the message does not carry', async () => {
    const reply = await send(
      adt('A03', {
        controlId: 'ADT-0003',
        patient: { ...ZHANG_WEI, birth: '', nationalId: undefined },
        discharge: '20260310140000',
        time: '20260310140000',
      }),
    );
    expect(reply.code).toBe('AA');
    await t.app.jobs.drain();
    const { ps, vs } = await cdr();
    expect(vs[0]!.dischargeAt?.toISOString()).toBe('2026-03-10T06:00:00.000Z');
    expect(String(ps[0]!.birthDate)).toContain('1965-03-12');
    expect(ps[0]!.nationalId).toBe('110101196503120018');
    // The discharge is an update of the visit, with its time before and after.
    const changes = await get(
      t.app,
      `/api/v0.1/collection/changes?sourceId=${sourceId}&table=visits&op=update`,
      admin,
    );
    expect(changes.body.data.items).toHaveLength(1);
    expect(changes.body.data.items[0].diff).toContainEqual({
      field: 'dischargeAt',
      before: null,
      after: expect.stringContaining('2026-03-10'),
    });
  });

  it('rejects a message the CDR refuses, with its reason in the reader’s language', async () => {
    // A result for a patient this source never sent, and an admission with an impossible date.
    expect((await send(oru({ controlId: 'LAB-0002', patient: { ...ZHANG_WEI, id: 'H99999' } }))).code).toBe(
      'AA',
    );
    expect(
      (await send(adt('A01', { controlId: 'ADT-0004', visit: 'V2', admit: '20260230080000' }))).code,
    ).toBe('AA');
    await t.app.jobs.drain();
    const zh = await get(
      t.app,
      `/api/v0.1/collection/hl7-messages?sourceId=${sourceId}&status=rejected`,
      admin,
    );
    expect(zh.status, JSON.stringify(zh.body)).toBe(200);
    expect(zh.body.data.total).toBe(2);
    const byId = Object.fromEntries(
      zh.body.data.items.map((m: { controlId: string; error: string }) => [m.controlId, m.error]),
    );
    expect(byId['LAB-0002']).toContain('还没有采集到患者 H99999');
    expect(byId['ADT-0004']).toContain('PV1-44 不是有效的 HL7 时间');
    const en = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/collection/hl7-messages?sourceId=${sourceId}&status=rejected`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(JSON.stringify(en.json())).toContain('no patient H99999 collected from this source yet');
    // Nothing of the refused admission was written (its patient is the one already there).
    expect((await cdr()).vs).toHaveLength(1);
    // The message list never carries the message's content.
    const all = await get(t.app, '/api/v0.1/collection/hl7-messages?size=200', admin);
    expect(all.body.data.total).toBe(6);
    expect(all.body.data.items[0]).toEqual({
      id: expect.any(Number),
      sourceId,
      controlId: 'ADT-0004',
      type: 'ADT^A01',
      status: 'rejected',
      error: expect.any(String),
      receivedAt: expect.any(String),
    });
    expect(JSON.stringify(all.body)).not.toContain('张');
    // The collection report counts the HL7 source's writes and its refused messages.
    const report = await get(t.app, '/api/v0.1/collection/report?period=month', admin);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const mine = (
      report.body.data.rows as Array<{
        sourceId: number;
        table: string;
        inserted: number;
        updated: number;
        rejected: number;
      }>
    ).filter((r) => r.sourceId === sourceId);
    const sum = (table: string, k: 'inserted' | 'updated' | 'rejected') =>
      mine.filter((r) => r.table === table).reduce((n, r) => n + r[k], 0);
    expect([
      sum('patients', 'inserted'),
      sum('visits', 'inserted'),
      sum('visits', 'updated'),
      sum('labResults', 'inserted'),
    ]).toEqual([1, 1, 1, 3]);
    expect([sum('labResults', 'rejected'), sum('patients', 'rejected')]).toEqual([1, 1]);
  });

  it('shows another app none of the messages', async () => {
    const theirs = await get(t.app, '/api/v0.1/collection/hl7-messages', other.key);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body.data).toEqual({ total: 0, items: [] });
    const filtered = await get(t.app, `/api/v0.1/collection/hl7-messages?sourceId=${sourceId}`, other.key);
    expect(filtered.body.data.total).toBe(0);
    const bad = await get(t.app, '/api/v0.1/collection/hl7-messages?status=lost', admin);
    expect(bad.status).toBe(400);
  });
});

describe('HL7 listeners follow the sources (HL7_LISTEN on)', () => {
  let t: TestApp;
  let admin: string;
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });

  beforeAll(async () => {
    t = await startTestApp({ hl7Listen: true, hl7Host: '127.0.0.1' });
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('listens on an enabled source’s port and stops when it is disabled', async () => {
    const listenPort = await freePort();
    const added = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'LIS', kind: 'hl7', config: { listenPort } },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await t.app.hl7.reconcile();
    expect(t.app.hl7.listeners.port(added.body.data.id)).toBe(listenPort);
    const reply = Hl7Message.parse(await sendFrame(listenPort, oru({ controlId: 'R-1' })));
    expect(msa(reply)).toMatchObject({ code: 'AA', controlId: 'R-1' });

    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/v0.1/collection/sources/${added.body.data.id}`,
      headers: { WeAppAuthorization: admin },
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    await t.app.hl7.reconcile();
    expect(t.app.hl7.listeners.port(added.body.data.id)).toBeUndefined();
    await expect(sendFrame(listenPort, oru({ controlId: 'R-2' }))).rejects.toThrow();
  });
});
