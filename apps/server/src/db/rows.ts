/** The rows of a raw `db.execute(sql…)` answer (PGlite and node-postgres both put them in `rows`). */
export const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
