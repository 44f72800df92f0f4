import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVER_FORM, registerPatients } from '../crf/testform.js';
import { envelope, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { captureLog, type LogCapture } from '../test/log-capture.js';

/**
 * What the server log holds, read from the log lines of the real app on the real database
 * (issue 15, items 2 and 3): a failed write keeps its error class, SQL text, SQLSTATE and
 * constraint, never the patient data, CRF answers or password hashes it carried; URLs keep no
 * session or free-access key; headers never reach the log.
 */
describe('the server log holds no secrets and no patient data', () => {
  let t: TestApp;
  let log: LogCapture;
  let admin: string;

  beforeAll(async () => {
    log = captureLog();
    t = await startTestApp({}, { logger: log.logger });
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => t.close());

  /** The log lines of one request. */
  const linesOf = (requestId: string) => log.records().filter((r) => r.reqId === requestId);

  it('a patient insert that the database refuses logs class, SQL, SQLSTATE and constraint, not the patient', async () => {
    // Two registrations racing for one phone number: the second meets a unique index (made for
    // this test) that the service does not check first, so the database refuses the insert.
    await t.app.db.execute(sql`create unique index log_test_patients_phone on patients (app_id, phone)`);
    const first = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'LOGMRN-1', name: '欧阳秀兰', gender: 2, phone: '13987654321', address: '幸福路八十八号' },
      admin,
    );
    expect(first.status).toBe(200);
    log.clear();
    const res = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'LOGMRN-2', name: '司马明远', gender: 1, phone: '13987654321', address: '长安街一号三单元' },
      admin,
    );
    await t.app.db.execute(sql`drop index log_test_patients_phone`);
    expect(res.status).toBe(500);
    const requestId = res.body.requestId as string;
    const text = log.text();
    for (const phi of ['司马明远', '欧阳秀兰', '13987654321', '长安街', '幸福路', 'LOGMRN-2', 'LOGMRN-1'])
      expect(text, phi).not.toContain(phi);
    const failed = linesOf(requestId).find((r) => r.level === 50);
    expect(failed, 'an error line carrying the request id').toBeDefined();
    expect(failed!.err).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query (values left out)',
      sql: expect.stringMatching(/^insert into "patients"/),
      cause: { code: '23505', constraint: 'log_test_patients_phone', table: 'patients' },
    });
  });

  it('a CRF record the database refuses logs no answer', async () => {
    const made = await post(t.app, '/api/v0.1/crf/forms', { name: '日志测试表单' }, admin);
    const formId = made.body.data.id as number;
    await t.app.inject({
      method: 'PUT',
      url: `/api/v0.1/crf/forms/${formId}/draft`,
      headers: { WeAppAuthorization: admin },
      payload: { definition: LIVER_FORM },
    });
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin)).status).toBe(
      200,
    );
    await registerPatients(t.app, ['LOGSUBJ-9']);
    await t.app.db.execute(
      sql`alter table crf_records add constraint log_test_refuse check (false) not valid`,
    );
    log.clear();
    const res = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      {
        subjectCode: 'LOGSUBJ-9',
        answers: { weight: 71.5, height: 168, hbsag: 'pos', hbvDna: 52000, note: '患者自述夜间盗汗三周' },
      },
      admin,
    );
    await t.app.db.execute(sql`alter table crf_records drop constraint log_test_refuse`);
    expect(res.status).toBe(500);
    const text = log.text();
    for (const phi of ['夜间盗汗', 'LOGSUBJ-9', '52000', '71.5']) expect(text, phi).not.toContain(phi);
    const failed = linesOf(res.body.requestId).find((r) => r.level === 50);
    expect(failed!.err).toMatchObject({
      type: 'DrizzleQueryError',
      cause: { code: '23514', constraint: 'log_test_refuse', table: 'crf_records' },
    });
  });

  it('a new user meeting a unique index logs neither the password hash nor the names', async () => {
    await t.app.db.execute(sql`create unique index log_test_users_nickname on users (nickname)`);
    log.clear();
    const res = await envelope(
      t.app,
      'Save',
      [{ UserName: 'logtest1', NickName: '系统管理员', Password: 'Log-Test-Pass-1' }],
      admin,
      '/api/merchants/merchantsuser',
    );
    await t.app.db.execute(sql`drop index log_test_users_nickname`);
    expect(res.status).toBe(500);
    const text = log.text();
    for (const secret of ['$argon2', 'argon2id', 'Log-Test-Pass-1', 'logtest1', '系统管理员'])
      expect(text, secret).not.toContain(secret);
    const failed = linesOf(res.body.requestId).find((r) => r.level === 50);
    expect(failed!.err).toMatchObject({
      type: 'DrizzleQueryError',
      sql: expect.stringMatching(/^insert into "users"/),
      cause: { code: '23505', constraint: 'log_test_users_nickname' },
    });
  });

  it('URLs in the log keep no session key, free-access key or search word; header keys never appear', async () => {
    log.clear();
    const urls = [
      `/api/v0.1/getekuser?SessionKey=${encodeURIComponent(admin)}`,
      `/?SessionKey=${encodeURIComponent(admin)}`,
      '/crf?id=12&key=FREEACCESSKEY0123456789',
      '/api/v0.1/nothing-here?token=TOKENVALUE42&code=CODEVALUE42&password=PLAINPASS42',
      '/api/v0.1/360?keyword=%E5%8F%B8%E9%A9%AC%E6%98%8E%E8%BF%9C&size=5',
    ];
    for (const url of urls) {
      await t.app.inject({
        method: 'GET',
        url,
        headers: {
          WeAppAuthorization: admin,
          authorization: 'Bearer BEARERTOKEN42',
          cookie: 'sid=COOKIEVALUE42',
        },
      });
    }
    const text = log.text();
    for (const secret of [
      admin,
      encodeURIComponent(admin),
      'FREEACCESSKEY0123456789',
      'TOKENVALUE42',
      'CODEVALUE42',
      'PLAINPASS42',
      'BEARERTOKEN42',
      'COOKIEVALUE42',
      '%E5%8F%B8', // the search word 司马明远
      '司马明远',
    ])
      expect(text, secret).not.toContain(secret);
    const logged = log
      .records()
      .map((r) => (r.req as { url?: string } | undefined)?.url)
      .filter(Boolean);
    expect(logged).toEqual([
      '/api/v0.1/getekuser?SessionKey=[redacted]',
      '/?SessionKey=[redacted]',
      '/crf?id=12&key=[redacted]',
      '/api/v0.1/nothing-here?token=[redacted]&code=[redacted]&password=[redacted]',
      '/api/v0.1/360?keyword=[redacted]&size=5',
    ]);
    // the completed line still tells status and timing
    expect(
      log.records().some((r) => r.msg === 'request completed' && typeof r.responseTime === 'number'),
    ).toBe(true);
  });
});
