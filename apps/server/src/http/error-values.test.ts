import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, bilingual } from './errors.js';
import { errorHandlingApp } from './test/support.js';

/**
 * A typed error's plain values travel with its code (issue 16): a screen words the code in its
 * own language, which the reader may have changed since the request (the sign-in page).
 */
describe('error handler: message values in the body', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = errorHandlingApp();
    app.get('/wait', async () => {
      throw new AppError(429, 'auth.tooManyGuesses', { seconds: 30 });
    });
    app.get('/wrong', async () => {
      throw new AppError(401, 'auth.badCredentials');
    });
    app.get('/worded', async () => {
      throw new AppError(400, 'request.invalid', { detail: bilingual('坏', 'bad') });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends numbers and plain strings, never a bilingual value, and nothing when there are none', async () => {
    const wait = await app.inject({ url: '/wait' });
    expect(wait.json()).toMatchObject({ errorCode: 'auth.tooManyGuesses', values: { seconds: 30 } });
    expect(wait.json().message).toContain('30');
    const wrong = await app.inject({ url: '/wrong', headers: { 'accept-language': 'en-US' } });
    expect(wrong.json().values).toBeUndefined();
    expect(wrong.json().message).toBe('Wrong user name or password');
    const worded = await app.inject({ url: '/worded' });
    expect(worded.json().values).toBeUndefined();
  });
});
