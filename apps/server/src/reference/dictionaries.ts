import {
  BASIC_DICTIONARY_LABELS,
  DICTIONARY_CSV_COLUMNS,
  type Dictionary,
  type DictionaryCodes,
  type DictionaryEntry,
  type DictionaryEntryPage,
  type DictionaryList,
  type dictionaryCreate,
  dictionaryEntryCreate,
  type dictionaryEntryPatch,
  type dictionaryPatch,
  type ImportFault,
  type ImportReport,
} from '@crdp/core';
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { pageOfTable } from '../db/paging.js';
import { appProducts, dictionaries, dictionaryEntries } from '../db/schema/index.js';
import { csvText } from '../files/csv.js';
import { faultReport, importHeader, insertedNow, upsertChunks } from '../files/csv-import.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';
import { issueText } from '../http/validation-messages.js';
import type { ParsePool } from '../parsing/pool.js';
import { BASIC_DICTIONARIES } from './basic-dictionaries.js';
import { pinyinInitials } from './pinyin.js';

/*
 * Local code tables. The basic dictionaries (`builtin`) are made for an app the first time its
 * basic-dictionary screen opens; their entries are the hospital's to edit, the dictionaries stay.
 * The app's own dictionaries (字典管理) are made, renamed and deleted freely. Each route family
 * (routes.ts) works on one kind only: `builtin` says which.
 */

type DictRow = typeof dictionaries.$inferSelect;
type EntryRow = typeof dictionaryEntries.$inferSelect;
type EntryCreate = z.output<typeof dictionaryEntryCreate>;
type EntryPatch = z.output<typeof dictionaryEntryPatch>;

const MAX_IMPORT_ROWS = 20_000;
const dictTrail = auditTrail('dictionary', 'dictionary');
const entryTrail = auditTrail('dictionary_entry', 'dictionary.entry');

const dictView = (d: DictRow, entryCount: number): Dictionary => ({
  id: d.dictionaryId,
  code: d.code,
  name: d.name,
  description: d.description,
  builtin: d.builtin,
  standardSystem: d.standardSystem,
  entryCount,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

const entryView = (e: EntryRow): DictionaryEntry => ({
  id: e.entryId,
  dictionaryId: e.dictionaryId,
  code: e.code,
  name: e.name,
  pinyin: e.pinyin,
  synonyms: e.synonyms,
  standardCode: e.standardCode,
  sortOrder: e.sortOrder,
  enabled: e.enabled,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

/**
 * Makes the basic dictionaries of an app that has none yet; a second caller finds them made.
 * Every start makes them for the apps that hold the product (`seedBasicDictionaries`), so a read
 * finds them; the list route calls this too, for an app made since the start.
 */
export async function ensureBasicDictionaries(
  db: Db,
  appId: number,
  source: RequestContext | null,
): Promise<void> {
  const [has] = await db
    .select({ n: count() })
    .from(dictionaries)
    .where(and(eq(dictionaries.appId, appId), eq(dictionaries.builtin, true)));
  if (has && has.n > 0) return;
  await db.transaction(async (tx) => {
    const made = await tx
      .insert(dictionaries)
      .values(
        BASIC_DICTIONARIES.map((d) => ({
          appId,
          code: d.code,
          name: BASIC_DICTIONARY_LABELS[d.code]['zh-CN'],
          description: d.description,
          standardSystem: d.standardSystem,
          builtin: true,
        })),
      )
      .onConflictDoNothing()
      .returning();
    if (!made.length) return;
    const idOf = new Map(made.map((d) => [d.code, d.dictionaryId]));
    const entries = BASIC_DICTIONARIES.flatMap((d) => {
      const dictionaryId = idOf.get(d.code);
      if (dictionaryId === undefined) return [];
      return d.entries.map((e, i) => ({
        appId,
        dictionaryId,
        code: e.code,
        name: e.name,
        pinyin: pinyinInitials(e.name),
        synonyms: e.synonyms ?? [],
        standardCode: e.standardCode ?? '',
        sortOrder: (i + 1) * 10,
      }));
    });
    if (entries.length) await tx.insert(dictionaryEntries).values(entries);
    await audit(tx, source, {
      appId,
      action: 'dictionary.seed',
      entity: 'dictionary',
      after: { dictionaries: made.map((d) => d.code), entries: entries.length },
    });
  });
}

/** At start: the basic dictionaries of every app that holds the product (idempotent). */
export async function seedBasicDictionaries(db: Db, productId: number): Promise<void> {
  const holders = await db
    .select({ appId: appProducts.appId })
    .from(appProducts)
    .where(eq(appProducts.productId, productId));
  for (const h of holders) await ensureBasicDictionaries(db, h.appId, null);
}

/** The app's dictionaries of one kind, by code, with how many entries each holds. */
export async function listDictionaries(
  db: Db,
  appId: number,
  builtin: boolean,
  keyword?: string,
): Promise<DictionaryList> {
  const k = keyword?.trim();
  const like = k ? `%${escapeLike(k)}%` : null;
  const rows = await db
    .select({ d: dictionaries, n: sql<number>`count(${dictionaryEntries.entryId})::int` })
    .from(dictionaries)
    .leftJoin(dictionaryEntries, eq(dictionaryEntries.dictionaryId, dictionaries.dictionaryId))
    .where(
      and(
        eq(dictionaries.appId, appId),
        eq(dictionaries.builtin, builtin),
        like ? or(ilike(dictionaries.name, like), ilike(dictionaries.code, like)) : undefined,
      ),
    )
    .groupBy(dictionaries.dictionaryId)
    .orderBy(asc(dictionaries.dictionaryId));
  return { items: rows.map((r) => dictView(r.d, r.n)) };
}

/** A dictionary of the app and of the route family's kind; any other answers 404. */
export async function dictionaryOf(db: Tx, appId: number, id: number, builtin: boolean): Promise<DictRow> {
  const [row] = await db
    .select()
    .from(dictionaries)
    .where(
      and(
        eq(dictionaries.dictionaryId, id),
        eq(dictionaries.appId, appId),
        eq(dictionaries.builtin, builtin),
      ),
    );
  if (!row) throw notFound('dictionary');
  return row;
}

async function entryCount(db: Tx, id: number) {
  const [r] = await db
    .select({ n: count() })
    .from(dictionaryEntries)
    .where(eq(dictionaryEntries.dictionaryId, id));
  return r?.n ?? 0;
}

export async function addDictionary(
  ctx: SignedIn,
  input: z.output<typeof dictionaryCreate>,
): Promise<Dictionary> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ name: dictionaries.name })
      .from(dictionaries)
      .where(and(eq(dictionaries.appId, appId), eq(dictionaries.code, input.code)));
    if (taken)
      throw invalidField(
        'code',
        `字典编码 ${input.code} 已被「${taken.name}」使用`,
        `dictionary code ${input.code} is already used by "${taken.name}"`,
      );
    const [row] = await tx
      .insert(dictionaries)
      .values({ appId, ...input, builtin: false })
      .returning();
    const after = dictView(row!, 0);
    return dictTrail.added(tx, ctx, after.id, after);
  });
}

export async function editDictionary(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof dictionaryPatch>,
): Promise<Dictionary> {
  return ctx.db.transaction(async (tx) => {
    const before = await dictionaryOf(tx, ctx.appId, id, false);
    const [row] = await tx
      .update(dictionaries)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(dictionaries.dictionaryId, id))
      .returning();
    const n = await entryCount(tx, id);
    const after = dictView(row!, n);
    return dictTrail.edited(tx, ctx, id, dictView(before, n), after);
  });
}

/** Deletes one of the app's own dictionaries with its entries (the audit row keeps how many). */
export async function deleteDictionary(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await dictionaryOf(tx, ctx.appId, id, false);
    const n = await entryCount(tx, id);
    await tx.delete(dictionaries).where(eq(dictionaries.dictionaryId, id));
    await dictTrail.deleted(tx, ctx, id, dictView(before, n));
    return true as const;
  });
}

/** One page of a dictionary's entries; `keyword` matches code, name, pinyin initials and synonyms. */
export async function listEntries(
  db: Db,
  dictionaryId: number,
  q: { keyword?: string | undefined; enabled?: boolean | undefined; page: number; size: number },
): Promise<DictionaryEntryPage> {
  const k = q.keyword?.trim();
  const like = k ? `%${escapeLike(k)}%` : null;
  const where = and(
    eq(dictionaryEntries.dictionaryId, dictionaryId),
    like
      ? or(
          ilike(dictionaryEntries.code, like),
          ilike(dictionaryEntries.name, like),
          ilike(dictionaryEntries.pinyin, like),
          sql`array_to_string(${dictionaryEntries.synonyms}, ' ') ilike ${like}`,
        )
      : undefined,
    q.enabled === undefined ? undefined : eq(dictionaryEntries.enabled, q.enabled),
  );
  const { total, rows } = await pageOfTable(
    db,
    dictionaryEntries,
    where,
    [asc(dictionaryEntries.sortOrder), asc(dictionaryEntries.code)],
    q,
  );
  return { total, page: q.page, size: q.size, items: rows.map(entryView) };
}

/** An entry of a dictionary of the app and of the route family's kind; any other answers 404. */
async function entryOf(
  db: Tx,
  appId: number,
  dictionaryId: number,
  builtin: boolean,
  entryId: number,
): Promise<EntryRow> {
  await dictionaryOf(db, appId, dictionaryId, builtin);
  const [row] = await db
    .select()
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.entryId, entryId), eq(dictionaryEntries.dictionaryId, dictionaryId)));
  if (!row) throw notFound('dictionary_entry');
  return row;
}

async function entryCodeFree(db: Tx, dictionaryId: number, code: string, except?: number) {
  const [taken] = await db
    .select({ name: dictionaryEntries.name })
    .from(dictionaryEntries)
    .where(
      and(
        eq(dictionaryEntries.dictionaryId, dictionaryId),
        eq(dictionaryEntries.code, code),
        except === undefined ? undefined : ne(dictionaryEntries.entryId, except),
      ),
    );
  if (taken)
    throw invalidField(
      'code',
      `编码 ${code} 已是「${taken.name}」`,
      `code ${code} is already "${taken.name}"`,
    );
}

export async function addEntry(
  ctx: SignedIn,
  dictionaryId: number,
  builtin: boolean,
  input: EntryCreate,
): Promise<DictionaryEntry> {
  return ctx.db.transaction(async (tx) => {
    await dictionaryOf(tx, ctx.appId, dictionaryId, builtin);
    await entryCodeFree(tx, dictionaryId, input.code);
    const [row] = await tx
      .insert(dictionaryEntries)
      .values({
        appId: ctx.appId,
        dictionaryId,
        ...input,
        pinyin: input.pinyin || pinyinInitials(input.name),
      })
      .returning();
    const after = entryView(row!);
    return entryTrail.added(tx, ctx, after.id, after);
  });
}

export async function editEntry(
  ctx: SignedIn,
  dictionaryId: number,
  builtin: boolean,
  entryId: number,
  input: EntryPatch,
): Promise<DictionaryEntry> {
  return ctx.db.transaction(async (tx) => {
    const before = await entryOf(tx, ctx.appId, dictionaryId, builtin, entryId);
    if (input.code !== undefined) await entryCodeFree(tx, dictionaryId, input.code, entryId);
    const name = input.name ?? before.name;
    // Blank pinyin, or a new name without pinyin given: derive it from the name.
    const pinyin =
      input.pinyin !== undefined && input.pinyin !== ''
        ? input.pinyin
        : input.pinyin === '' || input.name !== undefined
          ? pinyinInitials(name)
          : before.pinyin;
    const [row] = await tx
      .update(dictionaryEntries)
      .set({ ...input, pinyin, updatedAt: new Date() })
      .where(eq(dictionaryEntries.entryId, entryId))
      .returning();
    const after = entryView(row!);
    return entryTrail.edited(tx, ctx, entryId, entryView(before), after);
  });
}

export async function deleteEntry(
  ctx: SignedIn,
  dictionaryId: number,
  builtin: boolean,
  entryId: number,
): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await entryOf(tx, ctx.appId, dictionaryId, builtin, entryId);
    await tx.delete(dictionaryEntries).where(eq(dictionaryEntries.entryId, entryId));
    await entryTrail.deleted(tx, ctx, entryId, entryView(before));
    return true as const;
  });
}

const YES = new Set(['1', 'true', 'yes', 'y', '是', '启用']);
const NO = new Set(['0', 'false', 'no', 'n', '否', '停用']);

/**
 * Imports entries from CSV (columns of DICTIONARY_CSV_COLUMNS; `code` and `name` required;
 * synonyms separated by `|`). Each row is checked by the same rules as the entry form; a file
 * with any bad row stores nothing and answers the bad rows. A code already in the dictionary is
 * updated, a new one added.
 */
export async function importEntries(
  ctx: SignedIn,
  parsing: ParsePool,
  dictionaryId: number,
  builtin: boolean,
  text: string,
): Promise<ImportReport> {
  const zh = ctx.locale === 'zh-CN';
  await dictionaryOf(ctx.db, ctx.appId, dictionaryId, builtin);
  const rows = await parsing.run({ kind: 'csv.rows', text, field: 'body.text' }, 'body.text');
  const { total, cellOf } = importHeader(rows, ['code', 'name'], MAX_IMPORT_ROWS, DICTIONARY_CSV_COLUMNS);
  const faults: ImportFault[] = [];
  const good: EntryCreate[] = [];
  const seen = new Map<string, number>();
  for (const [i, cells] of rows.slice(1).entries()) {
    const row = i + 1;
    const cell = cellOf(cells);
    const fault = (field: string, c: string, e: string) => faults.push({ row, field, message: zh ? c : e });
    const enabledText = cell('enabled').toLowerCase();
    if (enabledText && !YES.has(enabledText) && !NO.has(enabledText)) {
      fault('enabled', '启用应为 是/否 或 1/0', 'enabled must be yes/no or 1/0');
      continue;
    }
    const sortText = cell('sort_order');
    if (sortText && !/^\d{1,5}$/.test(sortText)) {
      fault('sort_order', '排序应为 0 到 99999 的整数', 'sort_order must be a whole number from 0 to 99999');
      continue;
    }
    const candidate = {
      code: cell('code'),
      name: cell('name'),
      pinyin: cell('pinyin'),
      synonyms: cell('synonyms')
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean),
      standardCode: cell('standard_code'),
      sortOrder: sortText ? Number(sortText) : (row + 0) * 10,
      enabled: enabledText ? YES.has(enabledText) : true,
    };
    const parsed = dictionaryEntryCreate.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? 'code');
      const words = issueText(issue, candidate);
      faults.push({
        row,
        field: field === 'standardCode' ? 'standard_code' : field,
        message: words[ctx.locale],
      });
      continue;
    }
    const first = seen.get(parsed.data.code);
    if (first !== undefined) {
      fault(
        'code',
        `与第 ${first} 行重复（${parsed.data.code}）`,
        `repeats row ${first} (${parsed.data.code})`,
      );
      continue;
    }
    seen.set(parsed.data.code, row);
    good.push(parsed.data);
  }
  if (faults.length) return faultReport(total, faults);
  return ctx.db.transaction(async (tx) => {
    await dictionaryOf(tx, ctx.appId, dictionaryId, builtin);
    const { inserted, updated } = await upsertChunks(good, (chunk) =>
      tx
        .insert(dictionaryEntries)
        .values(
          chunk.map((g) => ({
            appId: ctx.appId,
            dictionaryId,
            ...g,
            pinyin: g.pinyin || pinyinInitials(g.name),
          })),
        )
        .onConflictDoUpdate({
          target: [dictionaryEntries.dictionaryId, dictionaryEntries.code],
          set: {
            name: sql`excluded.name`,
            pinyin: sql`excluded.pinyin`,
            synonyms: sql`excluded.synonyms`,
            standardCode: sql`excluded.standard_code`,
            sortOrder: sql`excluded.sort_order`,
            enabled: sql`excluded.enabled`,
            updatedAt: new Date(),
          },
        })
        .returning({ inserted: insertedNow }),
    );
    const report = { stored: true, total, inserted, updated, faultCount: 0, faults: [] };
    await audit(tx, ctx, {
      action: 'dictionary.import',
      entity: 'dictionary',
      entityId: dictionaryId,
      after: { total, inserted: report.inserted, updated: report.updated },
    });
    return report;
  });
}

/** A dictionary's entries as a CSV file people open in a spreadsheet (the formula guard is on). */
export async function exportEntries(
  ctx: SignedIn,
  dictionaryId: number,
  builtin: boolean,
): Promise<{ name: string; body: string }> {
  const d = await dictionaryOf(ctx.db, ctx.appId, dictionaryId, builtin);
  const rows = await ctx.db
    .select()
    .from(dictionaryEntries)
    .where(eq(dictionaryEntries.dictionaryId, dictionaryId))
    .orderBy(asc(dictionaryEntries.sortOrder), asc(dictionaryEntries.code));
  await audit(ctx.db, ctx, {
    action: 'dictionary.export',
    entity: 'dictionary',
    entityId: dictionaryId,
    after: { rows: rows.length },
  });
  const body = csvText(
    [
      [...DICTIONARY_CSV_COLUMNS],
      ...rows.map((e) => [
        e.code,
        e.name,
        e.pinyin,
        e.synonyms.join('|'),
        e.standardCode,
        e.sortOrder,
        e.enabled ? 1 : 0,
      ]),
    ],
    { formulaGuard: true },
  );
  return { name: `dictionary-${d.code}.csv`, body };
}

/** A dictionary's enabled codes with their names, found by the dictionary's code. */
export async function dictionaryCodes(
  ctx: RequestContext & { appId: number },
  code: string,
): Promise<DictionaryCodes> {
  const [d] = await ctx.db
    .select()
    .from(dictionaries)
    .where(and(eq(dictionaries.appId, ctx.appId), eq(dictionaries.code, code)));
  if (!d) throw notFound('dictionary');
  const entries = await ctx.db
    .select({ code: dictionaryEntries.code, name: dictionaryEntries.name })
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.dictionaryId, d.dictionaryId), eq(dictionaryEntries.enabled, true)))
    .orderBy(asc(dictionaryEntries.sortOrder), asc(dictionaryEntries.code));
  return { code: d.code, name: d.name, entries };
}

/** Real ids of one app's dictionaries of a kind and of their entries (the authorization matrix). */
export const dictionariesOf = (builtin: boolean) =>
  ownedIds(dictionaries, { id: dictionaries.dictionaryId, where: eq(dictionaries.builtin, builtin) });

export const entriesOf = (builtin: boolean) => async (db: Db, appId: number) => {
  const ds = await dictionariesOf(builtin)(db, appId);
  if (!ds.length) return [];
  return (
    await db
      .select({ id: dictionaryEntries.dictionaryId, entryId: dictionaryEntries.entryId })
      .from(dictionaryEntries)
      .where(
        inArray(
          dictionaryEntries.dictionaryId,
          ds.map((d) => d.id),
        ),
      )
      .limit(20)
  ).map((r) => ({ id: r.id, entryId: r.entryId }));
};

/** Codes of one app's own dictionaries (basic ones exist in every app under the same codes). */
export const dictionaryCodesOf = async (db: Db, appId: number) =>
  (
    await db
      .select({ code: dictionaries.code })
      .from(dictionaries)
      .where(and(eq(dictionaries.appId, appId), eq(dictionaries.builtin, false)))
  ).map((r) => ({ code: r.code }));
