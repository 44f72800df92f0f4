import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { isApiPath } from './no-store.js';

/** No browser or proxy keeps an API answer: they may carry patient data (issue 15, should-fix). */
describe('Cache-Control: no-store on every /api/ answer', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object, key: string | null = admin) =>
    t.app.inject({
      method,
      url,
      headers: key ? { WeAppAuthorization: key } : {},
      ...(payload ? { payload } : {}),
    });

  it('on answers with patient data, file downloads, envelope calls and errors of every kind', async () => {
    const patient = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'NS-1', name: '缓存测试', gender: 1, phone: '13700000000' },
      admin,
    );
    expect(patient.status).toBe(200);
    const answers = {
      'registration (POST, patient data)': await call('POST', '/api/v0.1/cdr/patients', {
        mrn: 'NS-2',
        name: '缓存测试二',
        gender: 2,
      }),
      'patient record': await call('GET', `/api/v0.1/360/person/${patient.body.data.id}`),
      'patient search': await call('GET', '/api/v0.1/360?size=5'),
      'CSV download': await call('POST', '/api/v0.1/fulltext/export', { text: '缓存' }),
      'signed-in user': await call('GET', '/api/v0.1/current_user'),
      'envelope call': await call('POST', '/api/merchants/merchantsuser', { method: 'GetList', params: [] }),
      '401 without session': await call('GET', '/api/v0.1/current_user', undefined, null),
      '400 bad input': await call('POST', '/api/v0.1/cdr/patients', { mrn: '' }),
      '404 unknown API path': await call('GET', '/api/v0.1/no-such-thing'),
      '404 unknown patient': await call('GET', '/api/v0.1/360/person/987654321'),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.statusCode]));
    expect(statuses).toEqual({
      'registration (POST, patient data)': 200,
      'patient record': 200,
      'patient search': 200,
      'CSV download': 200,
      'signed-in user': 200,
      'envelope call': 200,
      '401 without session': 401,
      '400 bad input': 400,
      '404 unknown API path': 404,
      '404 unknown patient': 404,
    });
    for (const [what, res] of Object.entries(answers))
      expect(res.headers['cache-control'], what).toBe('no-store');
  });

  it('leaves answers outside the API to their own rules', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['cache-control']).toBeUndefined();
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/v0.1/x?y=1')).toBe(true);
    expect(isApiPath('/apix')).toBe(false);
    expect(isApiPath('/crf?next=/api/')).toBe(false);
  });
});
