import rateLimit from '@fastify/rate-limit';
import { errorCodes, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlingApp } from './test/support.js';

/**
 * Fastify's own request errors reach the one error handler worded from the catalogue, in the
 * request's language (zh-CN by default), with their status codes kept. A small real Fastify
 * server with the handler and the same locale pick as the app throws each of them.
 */
describe('error handler: Fastify request errors', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = errorHandlingApp();
    await app.register(rateLimit, { global: false });
    app.get('/limited', { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async () => ({
      ok: true,
    }));
    app.get('/length', async () => {
      throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
    });
    app.get('/content-type', async () => {
      throw new errorCodes.FST_ERR_ROUTE_MISSING_CONTENT_TYPE('POST');
    });
    app.get('/missing', async () => {
      throw new errorCodes.FST_ERR_NOT_FOUND();
    });
    app.get('/bad-url', async () => {
      throw new errorCodes.FST_ERR_BAD_URL('%zz');
    });
    app.get('/long', async () => {
      throw new errorCodes.FST_ERR_MAX_PARAM_LENGTH('x');
    });
    app.get('/method', async () => {
      throw Object.assign(new Error('Method Not Allowed'), { statusCode: 405 });
    });
    app.get('/teapot', async () => {
      throw Object.assign(new Error('short and stout'), { statusCode: 418 });
    });
    app.post(
      '/ajv',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', maxLength: 3 } },
          },
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const call = async (url: string, en = false, method: 'GET' | 'POST' = 'GET', payload?: unknown) => {
    const r = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: en ? { 'accept-language': 'en-US' } : {},
    });
    return { status: r.statusCode, body: r.json() as { message: string; errorCode: string; field?: string } };
  };

  it('words each known Fastify code from the catalogue in Chinese by default and English on request', async () => {
    const cases: [string, number, string, string, string][] = [
      [
        '/length',
        400,
        'request.contentLength',
        '请求体大小与 Content-Length 请求头不符',
        'The request body size does not match the Content-Length header',
      ],
      [
        '/content-type',
        400,
        'request.missingContentType',
        'GET 请求必须带 Content-Type 请求头',
        'A GET request must carry a Content-Type header',
      ],
      ['/missing', 404, 'request.notFound', '接口不存在：/missing', 'No such API: /missing'],
      [
        '/bad-url',
        400,
        'request.badUrl',
        '网址中有无效的部分：/bad-url',
        'The URL has an invalid part: /bad-url',
      ],
      [
        '/long',
        414,
        'request.paramTooLong',
        '网址中的参数过长：/long',
        'A parameter in the URL is too long: /long',
      ],
      [
        '/method',
        405,
        'request.methodNotAllowed',
        '接口 /method 不支持 GET 方法',
        '/method does not accept the GET method',
      ],
    ];
    for (const [url, status, code, zh, en] of cases) {
      const a = await call(url);
      expect(a.status, url).toBe(status);
      expect(a.body.errorCode, url).toBe(code);
      expect(a.body.message, url).toBe(zh);
      const b = await call(url, true);
      expect(b.status, url).toBe(status);
      expect(b.body.message, url).toBe(en);
    }
  });

  it('words @fastify/rate-limit refusals from the catalogue with the seconds to wait', async () => {
    expect((await call('/limited')).status).toBe(200);
    const zh = await call('/limited');
    expect(zh.status).toBe(429);
    expect(zh.body.errorCode).toBe('request.rateLimited');
    expect(zh.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    const en = await call('/limited', true);
    expect(en.status).toBe(429);
    expect(en.body.message).toMatch(/^Too many requests, try again in \d+ seconds$/);
  });

  it('keeps the status of another 4xx and words the frame around its text per language', async () => {
    const zh = await call('/teapot');
    expect(zh.status).toBe(418);
    expect(zh.body.message).toBe('请求被拒绝（HTTP 418）：short and stout');
    const en = await call('/teapot', true);
    expect(en.body.message).toBe('The request was rejected (HTTP 418): short and stout');
  });

  it('names the field of a schema not written in zod, in Chinese by default and English on request', async () => {
    const missing = await call('/ajv', false, 'POST', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errorCode).toBe('request.invalid');
    expect(missing.body.message).toBe('请求参数错误：body: 缺少必填字段 name');
    const long = await call('/ajv', false, 'POST', { name: 'abcdef' });
    expect(long.body.field).toBe('body.name');
    expect(long.body.message).toBe('请求参数错误：body.name: 最多 3 个字符');
    const en = await call('/ajv', true, 'POST', { name: 'abcdef' });
    expect(en.status).toBe(400);
    expect(en.body.message).toBe('Invalid request: body.name: must NOT have more than 3 characters');
  });
});
