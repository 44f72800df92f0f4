import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { captureLog } from '../test/log-capture.js';
import { AppError } from './errors.js';
import {
  describeError,
  loggerOptions,
  redactUrl,
  safeMessage,
  scrubText,
  serializeError,
} from './logging.js';

describe('redactUrl', () => {
  it('redacts session keys, free-access keys, tokens, codes and passwords, whatever their case', () => {
    expect(redactUrl('/api/v0.1/getekuser?SessionKey=abc123')).toBe(
      '/api/v0.1/getekuser?SessionKey=[redacted]',
    );
    expect(redactUrl('/?sessionkey=abc123')).toBe('/?sessionkey=[redacted]');
    expect(redactUrl('/crf?id=7&key=k3y')).toBe('/crf?id=7&key=[redacted]');
    expect(redactUrl('/x?TOKEN=t&code=c&Password=p&access_token=a&apiKey=b&sig=s')).toBe(
      '/x?TOKEN=[redacted]&code=[redacted]&Password=[redacted]&access_token=[redacted]&apiKey=[redacted]&sig=[redacted]',
    );
    // an escaped name is still the secret's name
    expect(redactUrl('/?Session%4Bey=abc')).toBe('/?Session%4Bey=[redacted]');
  });

  it('keeps paging, sorting and ids, and redacts search words and anything unknown', () => {
    expect(redactUrl('/api/v0.1/360?keyword=%E5%BC%A0%E4%B8%89&size=20&cursor=40')).toBe(
      '/api/v0.1/360?keyword=[redacted]&size=20&cursor=40',
    );
    expect(redactUrl('/api/v0.1/jobs?page=2&status=failed&phone=13812345678')).toBe(
      '/api/v0.1/jobs?page=2&status=failed&phone=[redacted]',
    );
    // a kept name with a value that is not plain (a name in Chinese) is redacted too
    expect(redactUrl('/x?type=%E5%BC%A0%E4%B8%89')).toBe('/x?type=[redacted]');
    // a bare value and a fragment
    expect(redactUrl('/?c2Vzc2lvbmtleQ')).toBe('/?[redacted]');
    expect(redactUrl('/crf#key=abc')).toBe('/crf#[redacted]');
    expect(redactUrl('/api/v0.1/site')).toBe('/api/v0.1/site');
  });
});

describe('scrubText', () => {
  it('takes out drizzle’s params, quoted values and URL query values, and keeps names', () => {
    expect(scrubText('Failed query: insert into "patients" ("name") values ($1)\nparams: 张三,138')).toBe(
      'Failed query: insert into "patients" ("name") values ($1)',
    );
    expect(scrubText('invalid input syntax for type integer: "张三"')).toBe(
      'invalid input syntax for type integer: "[redacted]"',
    );
    expect(scrubText('duplicate key value violates unique constraint "users_user_name_lower"')).toBe(
      'duplicate key value violates unique constraint "users_user_name_lower"',
    );
    expect(scrubText('null value in column "name" of relation "patients" violates not-null constraint')).toBe(
      'null value in column "name" of relation "patients" violates not-null constraint',
    );
    expect(scrubText('Route GET:/?SessionKey=abc not found')).toBe(
      'Route GET:/?SessionKey=[redacted] not found',
    );
  });
});

describe('serializeError', () => {
  it('keeps class, SQL text, SQLSTATE and names of a failed query, never its values or detail', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "p_phone"'), {
      name: 'DatabaseError',
      code: '23505',
      detail: 'Key (phone)=(13812345678) already exists.',
      where: 'SQL statement "insert … 张三"',
      hint: '张三',
      constraint: 'p_phone',
      table: 'patients',
      schema: 'public',
      params: ['张三', '13812345678'],
      query: 'insert into patients values ($1, $2)',
    });
    const e = new DrizzleQueryError(
      'insert into "patients" ("name", "phone") values ($1, $2)',
      ['张三', '13812345678'],
      cause,
    );
    const out = serializeError(e) as Record<string, unknown>;
    const text = JSON.stringify(out);
    expect(text).not.toContain('张三');
    expect(text).not.toContain('13812345678');
    expect(out).toMatchObject({
      type: 'DrizzleQueryError',
      sql: 'insert into "patients" ("name", "phone") values ($1, $2)',
      cause: { code: '23505', constraint: 'p_phone', table: 'patients', schema: 'public' },
    });
    expect(String(out.stack)).toMatch(/^DrizzleQueryError: Failed query \(values left out\)\n\s+at /);
    expect(safeMessage(e)).toBe('Failed query (values left out)');
  });

  it('keeps an AppError’s status and key, not its values', () => {
    const out = serializeError(new AppError(500, 'server.error', { name: '张三' })) as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({ type: 'AppError', status: 500, key: 'server.error' });
    expect(JSON.stringify(out)).not.toContain('张三');
  });
});

describe('describeError (a failed start on the terminal)', () => {
  it('names the failed query and its cause without the demo account’s hash', () => {
    const cause = Object.assign(new Error('relation "users" does not exist'), {
      code: '42P01',
      severity: 'ERROR',
      params: ['admin', '$argon2id$v=19$m=19456,t=2,p=1$abc'],
    });
    const text = describeError(
      new DrizzleQueryError(
        'insert into "users" ("user_name", "password_hash") values ($1, $2)',
        ['admin', '$argon2id$v=19$m=19456,t=2,p=1$abc'],
        cause,
      ),
    );
    expect(text).not.toContain('argon2id');
    expect(text).toMatch(/^DrizzleQueryError: Failed query \(values left out\)\n/);
    expect(text).toContain('SQL: insert into "users" ("user_name", "password_hash") values ($1, $2)');
    expect(text).toContain('caused by Error: relation "users" does not exist (code 42P01)');
  });
});

describe('loggerOptions', () => {
  it('redacts headers, bodies and passwords that someone logs by hand, and scrubs messages', async () => {
    const log = captureLog();
    const app = Fastify({ logger: loggerOptions(log.logger) });
    app.log.info(
      {
        req: { headers: { weappauthorization: 'hdr-key', cookie: 'c=1', authorization: 'Bearer tok' } },
        headers: { weappauthorization: 'hdr-key-2' },
        body: { Password: 'Secret-Pass-1' },
        user: { passwordHash: '$argon2id$v=19$abc', name: 'x' },
      },
      'by hand',
    );
    app.log.error(new DrizzleQueryError('select $1', ['张三'], undefined));
    app.log.info('opened /crf?id=1&key=abc');
    await app.close();
    const text = log.text();
    for (const secret of ['hdr-key', 'Bearer tok', 'c=1', 'Secret-Pass-1', '$argon2id$', '张三', 'key=abc'])
      expect(text).not.toContain(secret);
    const [first, second, third] = log.records();
    expect(first).toMatchObject({ msg: 'by hand', body: '[redacted]', user: { passwordHash: '[redacted]' } });
    expect(second).toMatchObject({
      msg: 'Failed query (values left out)',
      err: { type: 'DrizzleQueryError' },
    });
    expect(third).toMatchObject({ msg: 'opened /crf?id=1&key=[redacted]' });
  });
});
