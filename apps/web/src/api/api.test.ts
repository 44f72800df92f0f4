import { describe, expect, it } from 'vitest';
import { CancelRegistry, cancelKey, PAGE_CHANGE_REASON } from './cancel';
import {
  classifyFailure,
  isBodyUnauthorized,
  readableBody,
  refusalText,
  serverMessage,
  timeoutFor,
} from './errors';

describe('cancel registry', () => {
  it('keys by method and path without query', () => {
    expect(cancelKey('get', '/api/v0.1/notices?page=2')).toBe('GET /api/v0.1/notices');
    expect(cancelKey(undefined, 'x#y')).toBe('GET x');
  });

  it('cancels every pending request with the page-change reason, and forgets finished ones', () => {
    const r = new CancelRegistry();
    const a = new AbortController();
    const b = new AbortController();
    const c = new AbortController();
    r.register('POST /api/merchants/merchantslogin', a);
    r.register('POST /api/merchants/merchantslogin', b);
    const done = r.register('GET /x', c);
    done();
    expect(r.size()).toBe(2);
    expect(r.cancelAll()).toBe(2);
    expect(a.signal.reason).toBe(PAGE_CHANGE_REASON);
    expect(b.signal.aborted).toBe(true);
    expect(c.signal.aborted).toBe(false);
    expect(r.size()).toBe(0);
  });
});

describe('time-outs', () => {
  it('gives patient 360 calls 60 s and everything else 180 s', () => {
    expect(timeoutFor('/api/v0.1/360/person/7')).toBe(60_000);
    expect(timeoutFor('api/v0.1/360')).toBe(60_000);
    expect(timeoutFor('/api/v0.1/3600')).toBe(180_000);
    expect(timeoutFor('/api/merchants/merchantslogin')).toBe(180_000);
  });
});

describe('error catalogue', () => {
  const ctx = { hasToken: true, isLogin: false, silent: false };

  it('turns 403 into a Forbidden notice with the server message', () => {
    expect(classifyFailure({ status: 403, body: { code: 403, message: 'nope' } }, ctx, 'retry')).toEqual({
      kind: 'forbidden',
      message: 'nope',
    });
  });

  it('turns 401 into a logout, noting whether a token existed', () => {
    expect(classifyFailure({ status: 401, body: {} }, ctx, 'r')).toEqual({
      kind: 'unauthorized',
      hadToken: true,
    });
    expect(classifyFailure({ status: 401 }, { ...ctx, hasToken: false }, 'r')).toEqual({
      kind: 'unauthorized',
      hadToken: false,
    });
  });

  it('leaves a sign-in 401 to the login page', () => {
    const r = classifyFailure(
      { status: 401, body: { code: 1, error: { message: 'bad' } } },
      { hasToken: false, isLogin: true, silent: true },
      'r',
    );
    expect(r).toEqual({ kind: 'silent', message: 'bad' });
  });

  it('reports the product-22 refusal as such', () => {
    const body = { code: 1, error: { message: '您尚未获得该产品的访问权限！', errorCode: 'auth.noProduct' } };
    expect(classifyFailure({ status: 403, body }, { ...ctx, isLogin: true }, 'r')).toEqual({
      kind: 'noProduct',
      message: '您尚未获得该产品的访问权限！',
    });
  });

  it('sends a 500 asking to log in first to the login page when no login is saved', () => {
    const body = { message: 'Please log in first' };
    expect(classifyFailure({ status: 500, body }, { ...ctx, hasToken: false }, 'r').kind).toBe('toLogin');
    expect(classifyFailure({ status: 500, body }, ctx, 'r').kind).toBe('show');
  });

  it('stays quiet about cancelled requests and falls back to the generic message', () => {
    expect(classifyFailure({ cancelled: true }, ctx, 'r').kind).toBe('cancelled');
    expect(classifyFailure({ status: 502 }, ctx, 'please retry')).toEqual({
      kind: 'show',
      message: 'please retry',
    });
  });

  it('reads envelope and REST messages and a body code 401', () => {
    expect(serverMessage({ code: 1, error: { message: 'a' } })).toBe('a');
    expect(serverMessage({ code: 400, message: 'b' })).toBe('b');
    expect(isBodyUnauthorized({ code: 401 })).toBe(true);
    expect(isBodyUnauthorized({ code: 0 })).toBe(false);
  });
});

describe('a server refusal in the reader’s language (issue 16)', () => {
  it('words a catalogue code again in the screen’s language, values included', () => {
    const wrong = { code: 1, error: { message: '用户名或密码错误', errorCode: 'auth.badCredentials' } };
    expect(refusalText(wrong, '用户名或密码错误', 'en-US')).toBe('Wrong user name or password');
    expect(refusalText(wrong, '用户名或密码错误', 'zh-CN')).toBe('用户名或密码错误');
    const wait = {
      code: 429,
      message: '密码错误次数过多，请 30 秒后再试',
      errorCode: 'auth.tooManyGuesses',
      values: { seconds: 30 },
    };
    expect(refusalText(wait, wait.message, 'en-US')).toBe(
      'Too many wrong passwords; try again in 30 seconds',
    );
    const disabled = { code: 1, error: { message: '账号已停用，请联系管理员', errorCode: 'auth.disabled' } };
    expect(refusalText(disabled, '', 'en-US')).toMatch(/disabled/);
  });

  it('keeps the server’s text when the code is not in the catalogue', () => {
    expect(refusalText({ errorCode: 'x.unknown' }, 'text', 'en-US')).toBe('text');
    expect(refusalText(undefined, 'text', 'en-US')).toBe('text');
  });
});

describe('a failed download', () => {
  it('reads the JSON refusal a blob download carries, so its reason is shown', async () => {
    const body = new Blob([JSON.stringify({ code: 409, message: '该表单还没有发布的版本' })], {
      type: 'application/json; charset=utf-8',
    });
    const read = await readableBody(body);
    expect(serverMessage(read)).toBe('该表单还没有发布的版本');
    const file = new Blob(['a,b'], { type: 'text/csv' });
    expect(await readableBody(file)).toBe(file);
    expect(await readableBody(new Blob(['{not json'], { type: 'application/json' }))).toBeInstanceOf(Blob);
  });
});
