import { safeText } from '@crdp/core';
import { z } from 'zod';
import { idValue } from '../auth/routes.js';

/** Input shapes shared by the admin envelope methods and REST routes. */
export { idValue };

/**
 * A string of at most `max` UTF-16 units. zod's own max counts code points, so a name of
 * astral characters could pass it at twice the length the database and screens expect.
 * No control characters or lone surrogates (the shared rule of `@crdp/core`); texts of 500
 * units or more are free text, where tab and line breaks are allowed.
 */
export const text = (max: number, opts: { min?: number; required?: string } = {}) =>
  safeText(max, { ...opts, multiline: max >= 500 });

export const roleName = text(30, { min: 1, required: 'RoleName is required' });
export const userName = z
  .string()
  .trim()
  .regex(/^[\w.@-]{2,64}$/, 'UserName must be 2 to 64 letters, digits or . _ @ -');
export const nickName = text(50);
export const password = z
  .string()
  .min(1)
  .max(64)
  .refine((v) => v.length <= 64, { message: 'must be at most 64 characters' });
export const keyword = text(100);
export const idList = (max: number) => z.array(idValue).max(max);

/** A positive integer in a query string. */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');
export const queryText = text(100);
