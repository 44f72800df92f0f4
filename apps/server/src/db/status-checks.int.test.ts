import {
  CLEANING_FAULTS,
  CODING_KINDS,
  cleaningRuleDefinition,
  DATA_FACTORY_KINDS,
  EXTERNAL_LAYOUTS,
  RECORD_QC_SEVERITIES,
  RULE_ACTION_KINDS,
  RULE_FAULT_LEVELS,
  RULE_STATUSES,
  TERMINOLOGY_DOMAINS,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openThrowAwayDatabase, type ThrowAwayDatabase } from '../test/database.js';
import type { Db, Tx } from './client.js';
import { rowsOf } from './rows.js';

/**
 * Every state column is checked by the database (db/README.md, "CHECK constraints on word
 * columns"): a column named `status`, `*_status`, `severity` or `*_severity` of a table of the
 * schema has a CHECK constraint, unless it is listed below as free text with the reason. The
 * checks of migration 0045 list exactly what the code writes, and a word outside a check's list
 * is refused by the database.
 */

/** State-named columns that hold free text on purpose, with the reason. */
const FREE_TEXT: Record<string, string> = {
  'allergies.severity':
    'a clinical source column: the reaction severity as the source system (HIS, FHIR import) words it',
};

/** The checks of migration 0045 and the values the code writes (the constants it writes them from). */
const ADDED_0045: Array<{ constraint: string; values: readonly string[] }> = [
  // rules/rules.ts: 'draft' (the default), 'published' on publish.
  { constraint: 'clinical_rules_status', values: RULE_STATUSES },
  // rules/runs.ts: one row per action of a rule; a fault's level, '' for the other actions.
  { constraint: 'rule_results_kind', values: RULE_ACTION_KINDS },
  { constraint: 'rule_results_level', values: ['', ...RULE_FAULT_LEVELS] },
  // record-qc/checks.ts: the severity of the check in RECORD_QC_CATALOGUE.
  { constraint: 'record_qc_faults_severity', values: RECORD_QC_SEVERITIES },
  // cleaning/rules.ts: the kind of the definition contract; cleaning/tasks.ts: the engine's fault or ''.
  {
    constraint: 'cleaning_rules_kind',
    values: cleaningRuleDefinition.options.map((o) => o.shape.kind.value),
  },
  { constraint: 'cleaned_values_fault', values: ['', ...CLEANING_FAULTS] },
  // data-factory/catalogue.ts, research/external/service.ts, terminology/seed.ts, data-models/models.ts.
  { constraint: 'data_factory_entries_kind', values: DATA_FACTORY_KINDS },
  { constraint: 'external_datasets_layout', values: EXTERNAL_LAYOUTS },
  { constraint: 'terminology_systems_domain', values: TERMINOLOGY_DOMAINS },
  { constraint: 'data_model_variables_coding_kind', values: CODING_KINDS },
];

interface StateColumn {
  table: string;
  column: string;
  /** The single-column CHECK constraints on it. */
  checks: string[];
}

/** The state-named columns of the schema's tables and the CHECK constraints on each. */
async function stateColumns(db: Db): Promise<StateColumn[]> {
  const r = await db.execute(sql`
    select c.relname::text as table, a.attname::text as column,
      coalesce(array_agg(k.conname::text order by k.conname) filter (where k.conname is not null), '{}') as checks
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_constraint k on k.conrelid = c.oid and k.contype = 'c' and k.conkey = array[a.attnum]
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
      and a.attname ~ '^(status|severity)$|_(status|severity)$'
    group by 1, 2 order by 1, 2`);
  return rowsOf<StateColumn>(r);
}

interface CheckDef {
  table: string;
  column: string;
  values: string[];
}

/** A single-column CHECK `col in (...)` as the database holds it: its table, column and words. */
async function checkDef(db: Db, constraint: string): Promise<CheckDef | undefined> {
  const [row] = rowsOf<{ table: string; column: string; def: string }>(
    await db.execute(sql`
      select c.relname::text as table, a.attname::text as column, pg_get_constraintdef(k.oid) as def
      from pg_constraint k join pg_class c on c.oid = k.conrelid
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.conkey[1]
      where k.conname = ${constraint} and k.contype = 'c' and c.relnamespace = current_schema()::regnamespace`),
  );
  if (!row) return undefined;
  // CHECK ((status = ANY (ARRAY['draft'::text, 'published'::text]))); one value: (status = 'x'::text).
  const values = [...row.def.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1]!.replaceAll("''", "'"));
  return { table: row.table, column: row.column, values };
}

/** The driver's error under drizzle's wrapper: SQLSTATE and constraint name. */
function pgError(e: unknown): { code?: string; constraint?: string } {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined; x; x = x.cause as typeof x)
    if (typeof x.code === 'string') return x as { code: string; constraint?: string };
  return {};
}

class Undo extends Error {}

/** Runs `fn` in a transaction (or savepoint) that is always rolled back; answers its error, if any but Undo. */
async function rolledBack(db: Db | Tx, fn: (tx: Tx) => Promise<unknown>) {
  return db
    .transaction(async (tx) => {
      await fn(tx);
      throw new Undo();
    })
    .then(
      () => undefined,
      (e: unknown) => (e instanceof Undo ? undefined : e),
    );
}

/**
 * Inside `tx`, makes a row of `table` insertable with only `column` given: the table's other
 * checks and foreign keys are dropped, its user triggers disabled, and its other NOT NULL columns
 * without a default made nullable (a primary key column gets a placeholder instead). DDL is
 * transactional, so all of it goes with the rollback. Answers the insert of one value.
 */
async function relax(tx: Tx, table: string, column: string, keep: string) {
  const t = sql.identifier(table);
  const others = rowsOf<{ conname: string }>(
    await tx.execute(sql`select conname from pg_constraint
      where conrelid = ${table}::regclass and contype in ('c', 'f') and conname <> ${keep}`),
  );
  for (const o of others)
    await tx.execute(sql`alter table ${t} drop constraint ${sql.identifier(o.conname)}`);
  await tx.execute(sql`alter table ${t} disable trigger user`);
  const cols = rowsOf<{ name: string; type: string; pk: boolean }>(
    await tx.execute(sql`
      select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
        exists (select 1 from pg_constraint p where p.conrelid = a.attrelid and p.contype = 'p'
                and a.attnum = any (p.conkey)) as pk
      from pg_attribute a
      where a.attrelid = ${table}::regclass and a.attnum > 0 and not a.attisdropped and a.attnotnull
        and not a.atthasdef and a.attidentity = '' and a.attgenerated = '' and a.attname <> ${column}`),
  );
  const given: Record<string, string | number> = {};
  for (const c of cols) {
    if (!c.pk) await tx.execute(sql`alter table ${t} alter column ${sql.identifier(c.name)} drop not null`);
    else if (c.type === 'text') given[c.name] = 'x';
    else if (/^(integer|bigint|smallint)$/.test(c.type)) given[c.name] = 1;
    else throw new Error(`${table}.${c.name}: no placeholder for a primary key of type ${c.type}`);
  }
  return (value: string) => {
    const names = [column, ...Object.keys(given)].map((n) => sql.identifier(n));
    const values = [value, ...Object.values(given)].map((v) => sql`${v}`);
    return sql`insert into ${t} (${sql.join(names, sql`, `)}) values (${sql.join(values, sql`, `)})`;
  };
}

describe('CHECK constraints on state columns', () => {
  let d: ThrowAwayDatabase;
  let db: Db;

  beforeAll(async () => {
    d = await openThrowAwayDatabase();
    db = d.database.db;
  });
  afterAll(async () => d?.drop());

  it('every status, *_status, severity and *_severity column has a CHECK, or is listed as free text', async () => {
    const cols = await stateColumns(db);
    expect(cols.length).toBeGreaterThan(20);
    const unchecked = cols.filter((c) => !c.checks.length).map((c) => `${c.table}.${c.column}`);
    // A new state column needs `oneOf(...)` in its schema file and the CHECK in its migration.
    expect(unchecked.filter((c) => !(c in FREE_TEXT))).toEqual([]);
    // The list names only columns that exist and are still unchecked.
    expect(Object.keys(FREE_TEXT).filter((c) => !unchecked.includes(c))).toEqual([]);
  });

  it.each(ADDED_0045)(
    '$constraint lists exactly the words the code writes',
    async ({ constraint, values }) => {
      const def = await checkDef(db, constraint);
      expect(def, constraint).toBeDefined();
      expect([...def!.values].sort()).toEqual([...values].sort());
    },
  );

  it('each check stores its own words and refuses any other (SQLSTATE 23514, naming it)', async () => {
    const names = new Set(ADDED_0045.map((a) => a.constraint));
    for (const c of await stateColumns(db)) for (const k of c.checks) names.add(k);
    expect(names.size).toBeGreaterThan(20);
    for (const constraint of [...names].sort()) {
      const def = (await checkDef(db, constraint))!;
      expect(def.values.length, constraint).toBeGreaterThan(0);
      const failure = await rolledBack(db, async (tx) => {
        const insert = await relax(tx, def.table, def.column, constraint);
        for (const v of def.values) {
          const e = await rolledBack(tx, (sp) => sp.execute(insert(v)));
          expect(e, `${constraint}: '${v}' is stored`).toBeUndefined();
        }
        const e = await rolledBack(tx, (sp) => sp.execute(insert('notAWord')));
        expect(pgError(e), `${constraint}: a wrong word is refused`).toMatchObject({
          code: '23514',
          constraint,
        });
      });
      expect(failure).toBeUndefined();
    }
  });
});
