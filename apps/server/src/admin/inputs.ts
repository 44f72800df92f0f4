import { z } from 'zod';
import { idValue } from '../auth/routes.js';

/** Input shapes shared by the admin envelope methods and REST routes. */
export { idValue };

/**
 * A string of at most `max` UTF-16 units. zod's own max counts code points, so a name of
 * astral characters could pass it at twice the length the database and screens expect.
 */
export const text = (max: number, opts: { min?: number; required?: string } = {}) => {
  let s = z.string().trim();
  if (opts.min) s = s.min(opts.min, opts.required);
  return s.max(max).refine((v) => v.length <= max, { message: `must be at most ${max} characters` });
};

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
