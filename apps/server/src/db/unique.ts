/**
 * Whether an error is PostgreSQL's unique_violation (23505), on either driver: drizzle wraps the
 * driver's error in its own, with the original as `cause`.
 */
export function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && depth < 4; x = (x as { cause?: unknown }).cause, depth++)
    if ((x as { code?: string }).code === '23505') return true;
  return false;
}
