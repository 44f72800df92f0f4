import type { MessageKey } from '@crdp/core';

/**
 * A typed error the one error handler turns into a response. `key` names a message of the
 * shared catalogue (translated per request); `field` names the input at fault, when one is.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly values: Record<string, string | number> = {},
    readonly field?: string,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: string, field?: string) =>
  new AppError(400, 'request.invalid', { detail }, field);
export const unauthorized = (key: MessageKey = 'auth.required') => new AppError(401, key);
export const forbidden = (key: MessageKey = 'auth.forbidden', values: Record<string, string> = {}) =>
  new AppError(403, key, values);
export const notFound = (entity: string) => new AppError(404, 'entity.notFound', { entity });
