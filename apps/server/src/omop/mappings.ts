import {
  findTextFault,
  type OmopImportFault,
  type OmopImportReport,
  type OmopMapping,
  type OmopMappingInput,
  type OmopMappingPage,
  type omopMappingImportInput,
  type omopMappingQuery,
} from '@crdp/core';
import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, ownedKeys, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOfTable } from '../db/paging.js';
import { omopMappings } from '../db/schema/index.js';
import { csvStream } from '../files/csv.js';
import { faultReport, importHeader, insertedNow, upsertChunks } from '../files/csv-import.js';
import type { AppActor } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import type { ParsePool } from '../parsing/pool.js';
import {
  BUILTIN_MAPPINGS,
  CLOSED_CODES,
  KIND_LABELS,
  MAPPING_KINDS,
  type MappingKind,
  normalizeCode,
} from './cdm.js';

/**
 * Source-to-concept maps of one app (OmopMappingManage): CRUD, CSV import and export. Every write
 * audits in its transaction. The built-in maps (gender, visit kinds) are code; a row of the
 * same kind and code overrides one.
 */
/** Whoever acts in the app: a signed-in person (or a free-access link: no user id). */
export type Actor = AppActor;

const MAX_INT = 2_147_483_647;
const trail = auditTrail('omop_mapping', 'omop.mapping');

const view = (r: typeof omopMappings.$inferSelect): OmopMapping => ({
  id: r.id,
  kind: r.kind as MappingKind,
  sourceCode: r.sourceCode,
  conceptId: r.conceptId,
  conceptName: r.conceptName,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** What is wrong with a source code of a kind with a closed list of codes (Chinese, English), or null. */
function closedCodeFault(kind: MappingKind, code: string): [zh: string, en: string] | null {
  const closed = CLOSED_CODES[kind];
  return closed && !closed.includes(code)
    ? [
        `${KIND_LABELS[kind].zh}的源编码只能是 ${closed.join('、')}`,
        `a ${kind} source code is one of ${closed.join(', ')}`,
      ]
    : null;
}

/** The kind-specific check of a source code; throws 400 naming `field`. */
function checkCode(kind: MappingKind, code: string, field: string) {
  const fault = closedCodeFault(kind, code);
  if (fault) throw invalidField(field, ...fault);
}

/** A map of this kind and source code exists already: 400 on sourceCode. */
const duplicateCode = (kind: MappingKind, code: string) =>
  invalidField(
    'sourceCode',
    `此类型下已有源编码 ${code} 的映射`,
    `a ${kind} mapping of source code ${code} already exists`,
  );

/** The columns a map's input sets (its source code normalised). */
const inputColumns = (input: OmopMappingInput, code: string) => ({
  kind: input.kind,
  sourceCode: code,
  conceptId: input.conceptId,
  conceptName: input.conceptName,
  note: input.note ?? '',
});

const mappingOf = appRowOf(omopMappings, 'omop mapping');

export async function loadMapping(db: Tx, actor: Actor, id: number): Promise<OmopMapping> {
  return view(await mappingOf(db, actor.appId, id));
}

async function duplicateOf(db: Tx, appId: number, kind: MappingKind, code: string) {
  const [row] = await db
    .select({ id: omopMappings.id })
    .from(omopMappings)
    .where(
      and(eq(omopMappings.appId, appId), eq(omopMappings.kind, kind), eq(omopMappings.sourceCode, code)),
    );
  return row?.id ?? null;
}

export async function listMappings(
  db: Db,
  actor: Actor,
  q: z.infer<typeof omopMappingQuery>,
): Promise<OmopMappingPage> {
  const where: SQL[] = [eq(omopMappings.appId, actor.appId)];
  if (q.kind) where.push(eq(omopMappings.kind, q.kind));
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[%_\\]/g, '\\$&')}%`;
    where.push(
      or(
        ilike(omopMappings.sourceCode, like),
        ilike(omopMappings.conceptName, like),
        sql`${omopMappings.conceptId}::text = ${q.keyword}`,
      )!,
    );
  }
  const cond = and(...where);
  const { total, rows } = await pageOfTable(
    db,
    omopMappings,
    cond,
    [asc(omopMappings.kind), asc(omopMappings.sourceCode)],
    q,
  );
  // Built-in maps the app has not overridden, for the list's "built in" section.
  const own = await db
    .select({ kind: omopMappings.kind, code: omopMappings.sourceCode })
    .from(omopMappings)
    .where(and(eq(omopMappings.appId, actor.appId), sql`${omopMappings.kind} in ('gender', 'visit')`));
  const overridden = new Set(own.map((o) => `${o.kind}\u0001${o.code}`));
  return {
    total,
    page: q.page,
    size: q.size,
    items: rows.map(view),
    builtin: BUILTIN_MAPPINGS.map((b) => ({
      ...b,
      overridden: overridden.has(`${b.kind}\u0001${b.sourceCode}`),
    })),
  };
}

export async function createMapping(db: Db, actor: Actor, input: OmopMappingInput): Promise<OmopMapping> {
  const code = normalizeCode(input.kind, input.sourceCode);
  checkCode(input.kind, code, 'sourceCode');
  return db.transaction(async (tx) => {
    if (await duplicateOf(tx, actor.appId, input.kind, code)) throw duplicateCode(input.kind, code);
    const [row] = await tx
      .insert(omopMappings)
      .values({ appId: actor.appId, ...inputColumns(input, code), createdBy: actor.userId })
      .returning();
    const v = view(row!);
    await audit(tx, actor, {
      action: 'omop.mapping.create',
      entity: 'omop_mapping',
      entityId: v.id,
      after: v,
    });
    return v;
  });
}

export async function updateMapping(
  db: Db,
  actor: Actor,
  id: number,
  input: OmopMappingInput,
): Promise<OmopMapping> {
  const code = normalizeCode(input.kind, input.sourceCode);
  checkCode(input.kind, code, 'sourceCode');
  return db.transaction(async (tx) => {
    const before = view(await mappingOf(tx, actor.appId, id));
    const dup = await duplicateOf(tx, actor.appId, input.kind, code);
    if (dup && dup !== id) throw duplicateCode(input.kind, code);
    const row = await updateAppRow(tx, omopMappings, actor.appId, id, {
      ...inputColumns(input, code),
      updatedAt: new Date(),
    });
    const after = view(row!);
    await audit(tx, actor, {
      action: 'omop.mapping.update',
      entity: 'omop_mapping',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

export async function deleteMapping(db: Db, actor: Actor, id: number): Promise<null> {
  return db.transaction(async (tx) => {
    const before = view(await mappingOf(tx, actor.appId, id));
    await deleteAppRow(tx, omopMappings, actor.appId, id);
    await trail.deleted(tx, actor, id, before);
    return null;
  });
}

export const IMPORT_COLUMNS = ['kind', 'source_code', 'concept_id', 'concept_name'] as const;
const MAX_IMPORT_ROWS = 50_000;

type ImportFault = OmopImportFault;

/**
 * Imports a CSV of maps. All or nothing: a file with any bad row stores none of its rows and
 * reports every bad row (row number, column, reason), so the data manager fixes the file and
 * loads it again instead of hunting for the rows that went in. A good file upserts by kind and
 * source code: existing maps take the file's concept. A missing column or an empty file is 400.
 */
export async function importMappings(
  db: Db,
  actor: Actor,
  parsing: ParsePool,
  input: z.infer<typeof omopMappingImportInput>,
): Promise<OmopImportReport> {
  const zh = actor.locale === 'zh-CN';
  const say = (c: string, e: string) => (zh ? c : e);
  // Read in a worker thread (parsing/pool.ts), off the event loop that answers requests.
  const rows = await parsing.run({ kind: 'csv.rows', text: input.text, field: 'body.text' }, 'body.text');
  const { total, cellOf } = importHeader(rows, IMPORT_COLUMNS, MAX_IMPORT_ROWS);
  const faults: ImportFault[] = [];
  const good: Array<{
    kind: MappingKind;
    code: string;
    conceptId: number;
    conceptName: string;
    note: string;
  }> = [];
  const seen = new Map<string, number>();
  const checkRow = (cells: string[], row: number): ImportFault | null => {
    const cell = cellOf(cells);
    const fault = (field: string, c: string, e: string): ImportFault => ({ row, field, message: say(c, e) });
    const kind = cell('kind').toLowerCase();
    if (!(MAPPING_KINDS as readonly string[]).includes(kind))
      return fault(
        'kind',
        `类型应为 ${MAPPING_KINDS.join('、')} 之一`,
        `kind must be one of ${MAPPING_KINDS.join(', ')}`,
      );
    const k = kind as MappingKind;
    const raw = cell('source_code');
    if (!raw) return fault('source_code', '源编码为空', 'source_code is empty');
    if (raw.length > 50 || findTextFault(raw) !== null)
      return fault(
        'source_code',
        '源编码最长 50 个字符且不能含控制字符',
        'source_code: at most 50 characters, no control characters',
      );
    const code = normalizeCode(k, raw);
    const closed = closedCodeFault(k, code);
    if (closed) return fault('source_code', ...closed);
    const idText = cell('concept_id');
    const conceptId = Number(idText);
    if (!/^\d+$/.test(idText) || !Number.isSafeInteger(conceptId) || conceptId < 1 || conceptId > MAX_INT)
      return fault('concept_id', '概念 ID 应为正整数', 'concept_id must be a positive integer');
    const conceptName = cell('concept_name');
    if (!conceptName) return fault('concept_name', '概念名称为空', 'concept_name is empty');
    if (conceptName.length > 255 || findTextFault(conceptName) !== null)
      return fault(
        'concept_name',
        '概念名称最长 255 个字符且不能含控制字符',
        'concept_name: at most 255 characters, no control characters',
      );
    const note = cell('note');
    if (note.length > 500 || findTextFault(note) !== null)
      return fault(
        'note',
        '备注最长 500 个字符且不能含控制字符',
        'note: at most 500 characters, no control characters',
      );
    const key = `${k}\u0001${code}`;
    const first = seen.get(key);
    if (first !== undefined)
      return fault(
        'source_code',
        `与第 ${first} 行重复（${k} ${code}）`,
        `repeats row ${first} (${k} ${code})`,
      );
    seen.set(key, row);
    good.push({ kind: k, code, conceptId, conceptName, note });
    return null;
  };
  for (const [i, cells] of rows.slice(1).entries()) {
    const f = checkRow(cells, i + 1);
    if (f) faults.push(f);
  }
  if (faults.length) return faultReport(total, faults);
  return db.transaction(async (tx) => {
    const { inserted, updated } = await upsertChunks(good, (chunk) =>
      tx
        .insert(omopMappings)
        .values(
          chunk.map((g) => ({
            appId: actor.appId,
            kind: g.kind,
            sourceCode: g.code,
            conceptId: g.conceptId,
            conceptName: g.conceptName,
            note: g.note,
            createdBy: actor.userId,
          })),
        )
        .onConflictDoUpdate({
          target: [omopMappings.appId, omopMappings.kind, omopMappings.sourceCode],
          set: {
            conceptId: sql`excluded.concept_id`,
            conceptName: sql`excluded.concept_name`,
            note: sql`excluded.note`,
            updatedAt: new Date(),
          },
        })
        .returning({ inserted: insertedNow }),
    );
    await audit(tx, actor, {
      action: 'omop.mapping.import',
      entity: 'omop_mapping',
      after: { fileName: input.fileName, total, inserted, updated },
    });
    return { stored: true, total, inserted, updated, faultCount: 0, faults: [] as ImportFault[] };
  });
}

/** The app's maps as CSV (the import's columns plus note), streamed in pages. */
export function exportMappingsCsv(db: Db, actor: Actor): AsyncGenerator<string> {
  async function* batches() {
    yield [[...IMPORT_COLUMNS, 'note']];
    let last = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(omopMappings)
        .where(and(eq(omopMappings.appId, actor.appId), sql`${omopMappings.id} > ${last}`))
        .orderBy(asc(omopMappings.id))
        .limit(2000);
      if (!rows.length) return;
      last = rows[rows.length - 1]!.id;
      yield rows.map((r) => [r.kind, r.sourceCode, r.conceptId, r.conceptName, r.note]);
    }
  }
  return csvStream(batches(), { formulaGuard: true });
}

export const ownedMappingIds = ownedKeys(
  omopMappings,
  { mappingId: omopMappings.id },
  { limit: 3, orderBy: desc(omopMappings.id) },
);
