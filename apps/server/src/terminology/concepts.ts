import {
  type ConceptDetail,
  type ConceptSummary,
  type FhirParameters,
  type ImportReport,
  type localCodeCreate,
  NEW_CODE_SCREENS,
  type TerminologyDomain,
  type TerminologyLookupAnswer,
  type TerminologySystem,
} from '@crdp/core';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { terminologyConcepts, terminologySynonyms, terminologySystems } from '../db/schema/index.js';
import { faultReport } from '../files/csv-import.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';
import type { ParsePool } from '../parsing/pool.js';
import { pinyinInitials } from '../reference/pinyin.js';
import { readConceptRows, storeStandardConcepts } from './load.js';
import { searchConcepts } from './search.js';
import { ensureTerminologies } from './seed.js';

type Concept = typeof terminologyConcepts.$inferSelect;
type System = typeof terminologySystems.$inferSelect;

const localCodeTrail = auditTrail('terminology_concept', 'terminology.localCode');

const summary = (c: Concept): ConceptSummary => ({
  conceptId: c.conceptId,
  systemKey: c.systemKey,
  code: c.code,
  displayZh: c.displayZh,
  displayEn: c.displayEn,
  parentCode: c.parentCode,
  level: c.level,
  retired: c.retired,
  pinyin: c.pinyin,
  local: c.local,
});

const systemView = (s: System) => ({
  systemKey: s.systemKey,
  nameZh: s.nameZh,
  nameEn: s.nameEn,
  domain: s.domain as TerminologyDomain,
  version: s.version,
  licence: s.licence,
  sourceUrl: s.sourceUrl,
  uri: s.uri,
  loadedAt: s.loadedAt ? s.loadedAt.toISOString() : null,
});

interface CountRow {
  system_key: string;
  standard: number;
  local: number;
}

/** Standard codes and the app's own local codes. */
const visibleTo = (appId: number) =>
  or(isNull(terminologyConcepts.appId), eq(terminologyConcepts.appId, appId));

/** The code systems with their version, licence and how many standard and local codes each holds. */
export async function listSystems(db: Db, appId: number): Promise<TerminologySystem[]> {
  await ensureTerminologies(db);
  const systems = await db.select().from(terminologySystems).orderBy(asc(terminologySystems.systemKey));
  const counts = await db.execute(sql`
    select system_key, count(*) filter (where app_id is null)::int as standard,
      count(*) filter (where app_id = ${appId})::int as local
    from terminology_concepts where app_id is null or app_id = ${appId} group by system_key`);
  const by = new Map(rowsOf<CountRow>(counts).map((r) => [r.system_key, r]));
  return systems.map((s) => ({
    ...systemView(s),
    conceptCount: Number(by.get(s.systemKey)?.standard ?? 0),
    localCount: Number(by.get(s.systemKey)?.local ?? 0),
  }));
}

async function systemOf(db: Db | Tx, systemKey: string): Promise<System> {
  const [s] = await db.select().from(terminologySystems).where(eq(terminologySystems.systemKey, systemKey));
  if (!s) throw notFound('terminology_system');
  return s;
}

export async function search(db: Db, appId: number, q: { q: string; system?: string; limit: number }) {
  await ensureTerminologies(db);
  return searchConcepts(db, appId, q);
}

/** A code as the app sees it: its own local code first, else the standard one. */
async function conceptOf(db: Db | Tx, appId: number, systemKey: string, code: string) {
  const rows = await db
    .select()
    .from(terminologyConcepts)
    .where(
      and(eq(terminologyConcepts.systemKey, systemKey), eq(terminologyConcepts.code, code), visibleTo(appId)),
    );
  return rows.find((r) => r.appId === null) ?? rows[0] ?? null;
}

/** A concept with its synonyms, its ancestors (root first) and the codes directly under it. */
export async function conceptDetail(
  db: Db,
  appId: number,
  systemKey: string,
  code: string,
): Promise<ConceptDetail> {
  await ensureTerminologies(db);
  const system = await systemOf(db, systemKey);
  const c = await conceptOf(db, appId, systemKey, code);
  if (!c) throw notFound('terminology_concept');
  const synonyms = await db
    .select({ term: terminologySynonyms.term })
    .from(terminologySynonyms)
    .where(eq(terminologySynonyms.conceptId, c.conceptId))
    .orderBy(asc(terminologySynonyms.term));
  const ancestors: ConceptSummary[] = [];
  const seen = new Set([c.code]);
  for (let p = c.parentCode; p && !seen.has(p) && ancestors.length < 20; ) {
    seen.add(p);
    const parent = await conceptOf(db, appId, systemKey, p);
    if (!parent) break;
    ancestors.unshift(summary(parent));
    p = parent.parentCode;
  }
  const children = await db
    .select()
    .from(terminologyConcepts)
    .where(
      and(
        eq(terminologyConcepts.systemKey, systemKey),
        eq(terminologyConcepts.parentCode, c.code),
        visibleTo(appId),
      ),
    )
    .orderBy(asc(terminologyConcepts.code))
    .limit(500);
  return {
    ...summary(c),
    synonyms: synonyms.map((s) => s.term),
    ancestors,
    children: children.map(summary),
    system: systemView(system),
  };
}

/**
 * Adds a local extension code of the app under a parent of the screen's code system. A code the
 * system already has (standard, or the app's own) answers 409 and changes nothing: a local code
 * never overwrites a standard one.
 */
export async function addLocalCode(
  ctx: SignedIn,
  domain: TerminologyDomain,
  input: z.output<typeof localCodeCreate>,
): Promise<ConceptSummary> {
  await ensureTerminologies(ctx.db);
  const systemKey = NEW_CODE_SCREENS[domain].systemKey;
  return ctx.db.transaction(async (tx) => {
    const system = await systemOf(tx, systemKey);
    // One writer per system and code: a second add of the same code waits, then finds it.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`terminology:${systemKey}:${input.code}`}))`,
    );
    const taken = await tx
      .select({ appId: terminologyConcepts.appId, displayZh: terminologyConcepts.displayZh })
      .from(terminologyConcepts)
      .where(
        and(
          eq(terminologyConcepts.systemKey, systemKey),
          sql`upper(${terminologyConcepts.code}) = upper(${input.code})`,
          visibleTo(ctx.appId),
        ),
      );
    const standard = taken.find((t) => t.appId === null);
    if (standard)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `${system.nameZh} 已有标准编码 ${input.code}（${standard.displayZh}），本院扩展编码不能覆盖标准编码，请换一个编码`,
          `${system.nameEn} already has the standard code ${input.code} (${standard.displayZh}); a local code never overwrites a standard code, choose another code`,
        ),
      });
    if (taken.length)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `本院已有扩展编码 ${input.code}（${taken[0]!.displayZh}）`,
          `this hospital already has the local code ${input.code} (${taken[0]!.displayZh})`,
        ),
      });
    let level = 1;
    if (input.parentCode) {
      const parent = await conceptOf(tx, ctx.appId, systemKey, input.parentCode);
      if (!parent)
        throw new AppError(
          400,
          'request.invalid',
          {
            detail: bilingual(
              `parentCode: ${system.nameZh} 中没有编码 ${input.parentCode}`,
              `parentCode: ${system.nameEn} has no code ${input.parentCode}`,
            ),
          },
          'parentCode',
        );
      level = parent.level + 1;
    }
    const [row] = await tx
      .insert(terminologyConcepts)
      .values({
        appId: ctx.appId,
        systemKey,
        code: input.code,
        displayZh: input.displayZh,
        displayEn: input.displayEn,
        parentCode: input.parentCode,
        level,
        pinyin: pinyinInitials(input.displayZh),
        local: true,
        createdBy: ctx.userId,
      })
      .returning();
    const synonyms = [...new Set(input.synonyms)].filter((s) => s !== input.displayZh);
    if (synonyms.length)
      await tx.insert(terminologySynonyms).values(
        synonyms.map((term) => ({
          appId: ctx.appId,
          conceptId: row!.conceptId,
          term,
          pinyin: pinyinInitials(term),
        })),
      );
    await localCodeTrail.added(tx, ctx, row!.conceptId, { systemKey, ...input, synonyms, level });
    return summary(row!);
  });
}

/**
 * A hospital's full list of a code system from CSV: every row checked, all stored or none (the
 * faults answered), codes the file leaves out retired. The standard codes are the site's, so
 * the write is on the system path; the audit row names who did it in which app.
 */
export async function importSystem(
  ctx: SignedIn,
  parsing: ParsePool,
  systemKey: string,
  body: { version: string; text: string },
): Promise<ImportReport> {
  await ensureTerminologies(ctx.db);
  await systemOf(ctx.db, systemKey);
  const rows = await parsing.run({ kind: 'csv.rows', text: body.text, field: 'body.text' }, 'body.text');
  const { good, faults, total } = readConceptRows(rows, ctx.locale);
  if (faults.length) return faultReport(total, faults);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`terminology:import:${systemKey}`}))`);
    const before = await systemOf(tx, systemKey);
    const stored = await storeStandardConcepts(tx, systemKey, body.version, good);
    await audit(tx, ctx, {
      action: 'terminology.import',
      entity: 'terminology_system',
      entityId: systemKey,
      before: { version: before.version },
      after: { version: body.version, total, ...stored },
    });
    return {
      stored: true,
      total,
      inserted: stored.inserted,
      updated: stored.updated,
      faultCount: 0,
      faults: [],
    };
  });
}

/** `terminology/app`: each item a code to look up or a term to search. */
export async function lookup(
  ctx: RequestContext & { auth: { appId: number } },
  body: {
    items: Array<{ system?: string | undefined; code?: string | undefined; term?: string | undefined }>;
    limit: number;
  },
): Promise<TerminologyLookupAnswer> {
  await ensureTerminologies(ctx.db);
  const appId = ctx.auth.appId;
  const out: TerminologyLookupAnswer = [];
  for (const [index, item] of body.items.entries()) {
    if (item.code && item.system) {
      const c = await conceptOf(ctx.db, appId, item.system, item.code);
      out.push({
        index,
        found: !!c,
        concepts: c ? [{ ...summary(c), match: 'codeExact', matchedSynonym: null }] : [],
      });
    } else {
      const text = item.term ?? item.code;
      if (!text)
        throw new AppError(
          400,
          'request.invalid',
          {
            detail: bilingual(
              `items[${index}]: 需要 code（和 system）或 term`,
              `items[${index}]: give a code (with its system) or a term`,
            ),
          },
          `items.${index}`,
        );
      const hits = await searchConcepts(ctx.db, appId, { q: text, system: item.system, limit: body.limit });
      out.push({ index, found: hits.length > 0, concepts: hits });
    }
  }
  return out;
}

/**
 * FHIR R4 `CodeSystem/$lookup`: the system by its canonical URL, the code's display, version,
 * Chinese and English designations, parent and children (FHIR's `parent`/`child` properties).
 */
export async function fhirLookup(
  db: Db,
  appId: number,
  system: string,
  code: string,
): Promise<FhirParameters> {
  await ensureTerminologies(db);
  const [s] = await db.select().from(terminologySystems).where(eq(terminologySystems.uri, system));
  if (!s) throw notFound('terminology_system');
  const d = await conceptDetail(db, appId, s.systemKey, code);
  const property = (code: string, value: string) => ({
    name: 'property',
    part: [
      { name: 'code', valueCode: code },
      { name: 'value', valueCode: value },
    ],
  });
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'name', valueString: s.nameEn },
      ...(s.version ? [{ name: 'version', valueString: s.version }] : []),
      { name: 'display', valueString: d.displayZh },
      {
        name: 'designation',
        part: [
          { name: 'language', valueCode: 'zh-CN' },
          { name: 'value', valueString: d.displayZh },
        ],
      },
      ...(d.displayEn
        ? [
            {
              name: 'designation',
              part: [
                { name: 'language', valueCode: 'en-US' },
                { name: 'value', valueString: d.displayEn },
              ],
            },
          ]
        : []),
      ...d.synonyms.map((t) => ({ name: 'designation', part: [{ name: 'value', valueString: t }] })),
      ...(d.parentCode ? [property('parent', d.parentCode)] : []),
      ...d.children.map((c) => property('child', c.code)),
      {
        name: 'property',
        part: [
          { name: 'code', valueCode: 'inactive' },
          { name: 'value', valueString: String(d.retired) },
        ],
      },
    ],
  };
}
