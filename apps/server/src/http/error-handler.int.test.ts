import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/helper.js';

/** The router's own refusals reach the one error handler in the real app, worded per language. */
describe('error handler in the app: router errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a malformed %-escape in a path parameter with a 400 in Chinese by default and English on request', async () => {
    const zh = await t.app.inject({ method: 'GET', url: '/api/v0.1/jobs/%zz' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toMatchObject({
      errorCode: 'request.badUrl',
      message: '网址中有无效的部分：/api/v0.1/jobs/%zz',
    });
    expect(zh.json().requestId).toBeTruthy();
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/jobs/%zz',
      headers: { 'accept-language': 'en-US' },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toBe('The URL has an invalid part: /api/v0.1/jobs/%zz');
  });

  it('answers an over-long path parameter with a 414 in both languages', async () => {
    const url = `/api/v0.1/jobs/${'9'.repeat(300)}`;
    const zh = await t.app.inject({ method: 'GET', url });
    expect(zh.statusCode).toBe(414);
    expect(zh.json()).toMatchObject({ errorCode: 'request.paramTooLong' });
    expect(zh.json().message).toMatch(/^网址中的参数过长：/);
    const en = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en-US' } });
    expect(en.json().message).toMatch(/^A parameter in the URL is too long: /);
  });
});
