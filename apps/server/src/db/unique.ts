/**
 * Whether an error is PostgreSQL's unique_violation (23505), on either driver: drizzle wraps the
 * driver's error in its own, with the original as `cause`.
 */
export function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && depth < 4; x = (x as { cause?: unknown }).cause, depth++)
    if ((x as { code?: string }).code === '23505') return true;
  return false;
}

/**
 * A `.catch` handler for a write a unique index guards: a unique violation becomes `error()` (the
 * API's words for the clash), anything else is thrown again as it is.
 */
export const clashAs =
  (error: () => Error) =>
  (e: unknown): never => {
    throw isUniqueViolation(e) ? error() : e;
  };
