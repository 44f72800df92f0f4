import { randomUUID } from 'node:crypto';
import { type FhirParameters, type FhirValueSet, OMOP_CONCEPT_URI } from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { omopMappings, terminologyConcepts, terminologySystems } from '../db/schema/index.js';
import { AppError, bilingual } from '../http/errors.js';
import { ensureTerminologies } from './seed.js';

/*
 * FHIR R4 terminology operations over the store, next to `CodeSystem/$lookup` (concepts.ts):
 * `ValueSet/$expand` and `ConceptMap/$translate`. Errors are OperationOutcomes (the routes'
 * `fhir` config, http/error-handler.ts).
 */

type System = typeof terminologySystems.$inferSelect;

/** The OMOP map kind whose source codes are codes of a system (omop/README.md). */
const OMOP_KIND_OF: Record<string, 'condition' | 'measurement' | 'drug'> = {
  ICD10: 'condition',
  LOINC: 'measurement',
  DRUG: 'drug',
};

const unknownSystem = (field: string, uri: string) =>
  new AppError(
    404,
    'entity.notFound',
    { entity: bilingual(`${field}: 编码系统 ${uri}`, `${field}: the code system ${uri}`) },
    field,
  );

async function systemByUri(db: Db, uri: string, field: string): Promise<System> {
  const [s] = await db.select().from(terminologySystems).where(eq(terminologySystems.uri, uri));
  if (!s) throw unknownSystem(field, uri);
  return s;
}

interface ExpandRow {
  code: string;
  display_zh: string;
  retired: boolean;
  total: number;
}

/**
 * `ValueSet/$expand`: the codes of the system (`url` = its canonical URI, or the implicit value
 * set `<uri>?fhir_vs`) the app sees — standard codes and its own local codes, retired ones left
 * out — in code order, a page of `count` from `offset`, with the total. `filter` keeps codes
 * starting with it and concepts whose name, English name or synonym holds it or whose pinyin
 * initials start with it.
 */
export async function fhirExpand(
  db: Db,
  appId: number,
  q: { url: string; filter?: string | undefined; count: number; offset: number },
): Promise<FhirValueSet> {
  await ensureTerminologies(db);
  const uri = q.url.replace(/\?fhir_vs$/, '');
  const s = await systemByUri(db, uri, 'url');
  const filter = q.filter?.trim() ?? '';
  const where = filter
    ? sql`and (upper(c.code) like ${`${escapeLike(filter.toUpperCase())}%`}
        or c.display_zh ilike ${`%${escapeLike(filter)}%`} or c.display_en ilike ${`%${escapeLike(filter)}%`}
        or c.pinyin like ${`${escapeLike(filter.toLowerCase())}%`}
        or exists (select 1 from terminology_synonyms t where t.concept_id = c.concept_id
          and t.term ilike ${`%${escapeLike(filter)}%`}))`
    : sql``;
  const rows = rowsOf<ExpandRow>(
    await db.execute(sql`
      select c.code, c.display_zh, c.retired, count(*) over ()::int as total
      from terminology_concepts c
      where c.system_key = ${s.systemKey} and not c.retired
        and (c.app_id is null or c.app_id = ${appId}) ${where}
      order by c.code, c.app_id nulls first
      limit ${q.count} offset ${q.offset}`),
  );
  let total = Number(rows[0]?.total ?? 0);
  if (!rows.length) {
    // An empty page (count 0, or past the end) still says how many there are.
    const [n] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from terminology_concepts c
        where c.system_key = ${s.systemKey} and not c.retired
          and (c.app_id is null or c.app_id = ${appId}) ${where}`),
    );
    total = Number(n?.n ?? 0);
  }
  return {
    resourceType: 'ValueSet',
    url: q.url,
    status: 'active',
    expansion: {
      identifier: `urn:uuid:${randomUUID()}`,
      timestamp: new Date().toISOString(),
      total,
      offset: q.offset,
      parameter: [
        ...(filter ? [{ name: 'filter', valueString: filter }] : []),
        { name: 'count', valueInteger: q.count },
        { name: 'offset', valueInteger: q.offset },
      ],
      contains: rows.map((r) => ({
        system: s.uri,
        ...(s.version ? { version: s.version } : {}),
        code: r.code,
        display: r.display_zh,
      })),
    },
  };
}

interface Match {
  equivalence: string;
  system: string;
  code: string;
  display?: string | undefined;
}

/** The answer of `$translate`: result, a message, one `match` per target code. */
function translation(matches: Match[], source: string, message: string): FhirParameters {
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'result', valueBoolean: matches.length > 0 },
      { name: 'message', valueString: message },
      ...matches.map((m) => ({
        name: 'match',
        part: [
          { name: 'equivalence', valueCode: m.equivalence },
          {
            name: 'concept',
            valueCoding: { system: m.system, code: m.code, ...(m.display ? { display: m.display } : {}) },
          },
          { name: 'source', valueUri: source },
        ],
      })),
    ],
  };
}

const notTranslatable = (from: string, to: string) =>
  new AppError(400, 'request.invalid', {
    detail: bilingual(
      `targetsystem: 不能从 ${from} 转换到 ${to}（支持：本院扩展编码 → 同一系统的标准编码；ICD-10、LOINC、药品 ↔ OMOP 概念 ${OMOP_CONCEPT_URI}）`,
      `targetsystem: no translation from ${from} to ${to} (supported: a local code → the standard code of its system; ICD-10, LOINC, drug ↔ OMOP concept ${OMOP_CONCEPT_URI})`,
    ),
  });

/**
 * `ConceptMap/$translate`:
 * - same system: a local extension code → its nearest standard ancestor (`wider`); a standard
 *   code → itself (`equal`);
 * - ICD-10 / LOINC / drug → OMOP: the app's OMOP map of the code (omop_mappings, condition /
 *   measurement / drug), `equivalent`;
 * - OMOP → ICD-10 / LOINC / drug: every code the app maps to that concept_id, `equivalent`.
 * A code nothing maps answers `result: false` with a message (FHIR's way), not an error.
 */
export async function fhirTranslate(
  db: Db,
  appId: number,
  q: { system: string; code: string; targetsystem: string },
): Promise<FhirParameters> {
  await ensureTerminologies(db);
  const source = `urn:crdp:conceptmap:${encodeURIComponent(q.system)}:${encodeURIComponent(q.targetsystem)}`;
  if (q.system === OMOP_CONCEPT_URI) {
    const target = await systemByUri(db, q.targetsystem, 'targetsystem');
    const kind = OMOP_KIND_OF[target.systemKey];
    if (!kind) throw notTranslatable(q.system, q.targetsystem);
    if (!/^\d{1,10}$/.test(q.code))
      throw new AppError(
        400,
        'request.invalid',
        { detail: bilingual('code: OMOP 概念编号是数字', 'code: an OMOP concept id is a number') },
        'code',
      );
    const maps = await db
      .select({ code: omopMappings.sourceCode })
      .from(omopMappings)
      .where(
        and(
          eq(omopMappings.appId, appId),
          eq(omopMappings.kind, kind),
          eq(omopMappings.conceptId, Number(q.code)),
        ),
      )
      .orderBy(omopMappings.sourceCode);
    const displays = await displaysOf(
      db,
      appId,
      target.systemKey,
      maps.map((m) => m.code),
    );
    const matches = maps.map((m) => ({
      equivalence: 'equivalent',
      system: target.uri,
      code: m.code,
      display: displays.get(m.code.toUpperCase()),
    }));
    return translation(
      matches,
      source,
      matches.length
        ? `${matches.length} code(s)`
        : `no ${target.systemKey} code maps to OMOP concept ${q.code}`,
    );
  }
  const from = await systemByUri(db, q.system, 'system');
  if (q.targetsystem === OMOP_CONCEPT_URI) {
    const kind = OMOP_KIND_OF[from.systemKey];
    if (!kind) throw notTranslatable(q.system, q.targetsystem);
    const code = kind === 'condition' ? q.code.trim().toUpperCase() : q.code.trim();
    const [m] = await db
      .select({ conceptId: omopMappings.conceptId, conceptName: omopMappings.conceptName })
      .from(omopMappings)
      .where(
        and(eq(omopMappings.appId, appId), eq(omopMappings.kind, kind), eq(omopMappings.sourceCode, code)),
      );
    const matches = m
      ? [
          {
            equivalence: 'equivalent',
            system: OMOP_CONCEPT_URI,
            code: String(m.conceptId),
            display: m.conceptName,
          },
        ]
      : [];
    return translation(
      matches,
      source,
      m ? `OMOP concept ${m.conceptId}` : `no OMOP map of ${from.systemKey} ${code} in this hospital`,
    );
  }
  if (q.targetsystem !== q.system) {
    await systemByUri(db, q.targetsystem, 'targetsystem');
    throw notTranslatable(q.system, q.targetsystem);
  }
  // Same system: a local code climbs to its nearest standard ancestor.
  const byCode = async (code: string) =>
    (
      await db
        .select()
        .from(terminologyConcepts)
        .where(
          and(
            eq(terminologyConcepts.systemKey, from.systemKey),
            eq(terminologyConcepts.code, code),
            sql`(${terminologyConcepts.appId} is null or ${terminologyConcepts.appId} = ${appId})`,
          ),
        )
    ).sort((a, b) => (a.appId === null ? -1 : b.appId === null ? 1 : 0))[0];
  const start = await byCode(q.code);
  if (!start) return translation([], source, `${from.systemKey} has no code ${q.code}`);
  if (!start.local)
    return translation(
      [{ equivalence: 'equal', system: from.uri, code: start.code, display: start.displayZh }],
      source,
      'a standard code',
    );
  const seen = new Set([start.code]);
  for (let p = start.parentCode; p && !seen.has(p) && seen.size < 30; ) {
    seen.add(p);
    const parent = await byCode(p);
    if (!parent) break;
    if (!parent.local)
      return translation(
        [{ equivalence: 'wider', system: from.uri, code: parent.code, display: parent.displayZh }],
        source,
        `local code ${start.code} sits under standard code ${parent.code}`,
      );
    p = parent.parentCode;
  }
  return translation([], source, `local code ${start.code} has no standard ancestor`);
}

async function displaysOf(db: Db, appId: number, systemKey: string, codes: string[]) {
  if (!codes.length) return new Map<string, string>();
  const rows = await db
    .select({ code: terminologyConcepts.code, display: terminologyConcepts.displayZh })
    .from(terminologyConcepts)
    .where(
      and(
        eq(terminologyConcepts.systemKey, systemKey),
        sql`upper(${terminologyConcepts.code}) in (${sql.join(
          codes.map((c) => sql`${c.toUpperCase()}`),
          sql`, `,
        )})`,
        sql`(${terminologyConcepts.appId} is null or ${terminologyConcepts.appId} = ${appId})`,
      ),
    );
  return new Map(rows.map((r) => [r.code.toUpperCase(), r.display]));
}
