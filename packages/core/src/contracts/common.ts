import { z } from 'zod';

/**
 * Building blocks of the API contracts (ARCHITECTURE.md, "Contracts live in `@crdp/core`").
 *
 * Each area has one file here holding the zod schemas of its request bodies, queries and
 * response data, and the types inferred from them. The server declares them on its routes
 * (`schema.response`), so a route's answer is checked and documented (OpenAPI at /api/docs);
 * the web imports the inferred types, so neither side declares a shape by hand.
 *
 * Response schemas describe what the server sends; the server's serializer parses the answer
 * with them, drops what they do not name and refuses (500, logged) what does not match.
 */

/** The REST envelope of spec 000 §7: `{ code: 200, data, message }`. */
export const restOk = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(200), data, message: z.string() });

/**
 * A point in time as it travels: the server may hold a `Date` (drizzle timestamps) or an ISO
 * string; the wire and the web always see the ISO string.
 */
export const timestamp = z
  .union([z.date(), z.string()])
  .transform((v) => (typeof v === 'string' ? v : v.toISOString()))
  .meta({ type: 'string', format: 'date-time' });

/** A nullable point in time. */
export const timestampOrNull = timestamp.nullable();

/** When a record was made and when it last changed, as every stored definition carries them. */
export const stamps = { createdAt: timestamp, updatedAt: timestamp };

/** One page of a list, with the total number of rows that match. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int() });
/** What `page(item)` answers, for an item type `T` (the web's list calls). */
export type PageOf<T> = { items: T[]; total: number };

/** A list answered whole, without paging: `{ items }`. */
export const itemList = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

/**
 * The page a list asks for in its query string: a 1-based page number and a page size of at
 * most `maxSize` rows (spread into the area's query schema).
 */
export const pageQueryFields = (maxSize: number, defaultSize = 20) => ({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(maxSize).default(defaultSize),
});

/** A file download: the body is the file; its Content-Type and Content-Disposition say which. */
export const fileDownload = z.unknown().meta({ description: 'A file; the Content-Type header says which.' });

/** `{ id }` of something created. */
export const createdId = z.object({ id: z.number().int() });
export type CreatedId = z.infer<typeof createdId>;

/** A thing made and the job that works on it: `{ id, jobId }`. */
export const startedJob = z.object({ id: z.number().int(), jobId: z.number().int() });
export type StartedJob = z.infer<typeof startedJob>;

/** `{ id }` of something deleted. */
export const deletedId = createdId;
export type DeletedId = CreatedId;

/** Any JSON value: for payloads whose shape is a document of its own (CRF answers, chart specs). */
export const jsonValue: z.ZodType<unknown> = z.unknown();

/** One bad row of a CSV import: 1-based data row (the header is row 0), column and reason. */
export const importFault = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportFault = z.infer<typeof importFault>;

/** A CSV import's report: all rows stored, or none and the bad rows (at most 1000 listed). */
export const importReport = z.object({
  stored: z.boolean(),
  total: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  faultCount: z.number().int(),
  faults: z.array(importFault),
});
export type ImportReport = z.infer<typeof importReport>;

/** The body of a CSV import: the file's name and its text. */
export const csvImportBody = z.object({
  fileName: z.string().trim().min(1).max(200),
  text: z.string().min(1).max(5_000_000),
});
export type CsvImportBody = z.input<typeof csvImportBody>;

/**
 * The body of a PATCH from the body of a create: every field optional and none defaulted, so a
 * field left out keeps its stored value. (zod's own `.partial()` keeps the defaults: a PATCH of
 * the name alone would write the defaults of every other field over what is stored.)
 */
export function patchOf<S extends z.ZodObject>(schema: S): ReturnType<S['partial']> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([k, v]) => [k, v instanceof z.ZodDefault ? v.unwrap() : v]),
  );
  return z.object(shape).partial() as unknown as ReturnType<S['partial']>;
}
