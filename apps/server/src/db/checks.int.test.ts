import { TASK_STATUSES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QC_KINDS, QC_SEVERITIES } from '../data-qc/catalogue.js';
import { MAPPING_KINDS } from '../omop/cdm.js';
import { PROJECT_ROLES } from '../research/inputs.js';
import { makeObjectsInDemoApp } from '../test/harness/fixtures.js';
import { signIn, startTestApp, type TestApp } from '../test/helper.js';
import { rowsOf } from './rows.js';

/**
 * CHECK constraints on the word columns (status, kind, role...; migration 0023, `oneOf` of
 * db/schema/policies.ts): every value the code writes is stored, any other word is refused by the
 * database itself, whoever writes it.
 */
const CHECKED: Array<{ table: string; column: string; constraint: string; values: readonly string[] }> = [
  // The job statuses the runner, the workers and the cancel call write.
  {
    table: 'jobs',
    column: 'status',
    constraint: 'jobs_status_value',
    values: ['queued', 'running', 'succeeded', 'failed', 'cancelled'],
  },
  {
    table: 'import_records',
    column: 'status',
    constraint: 'import_records_status',
    values: ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'],
  },
  { table: 'import_records', column: 'format', constraint: 'import_records_format', values: ['fhir', 'csv'] },
  { table: 'crf_forms', column: 'status', constraint: 'crf_forms_status', values: ['active', 'archived'] },
  {
    table: 'crf_records',
    column: 'status',
    constraint: 'crf_records_status',
    values: ['draft', 'submitted', 'verified', 'locked'],
  },
  {
    table: 'crf_records',
    column: 'status_before_lock',
    constraint: 'crf_records_status_before_lock',
    values: ['submitted', 'verified'],
  },
  { table: 'qc_rules', column: 'kind', constraint: 'qc_rules_kind', values: QC_KINDS },
  { table: 'qc_rules', column: 'severity', constraint: 'qc_rules_severity', values: QC_SEVERITIES },
  {
    table: 'disease_libraries',
    column: 'status',
    constraint: 'disease_libraries_status',
    values: ['enabled', 'disabled'],
  },
  {
    table: 'disease_libraries',
    column: 'filing_rule',
    constraint: 'disease_libraries_filing_rule',
    values: ['push', 'firstVisit', 'firstDiagnosis'],
  },
  {
    table: 'disease_library_fill_log',
    column: 'outcome',
    constraint: 'disease_library_fill_log_outcome',
    values: ['filled', 'unchanged', 'keptManual', 'noData', 'unobtainable', 'invalid'],
  },
  {
    table: 'free_access_keys',
    column: 'scope_kind',
    constraint: 'free_access_keys_scope_kind',
    values: ['crf', 'term'],
  },
  { table: 'sessions', column: 'kind', constraint: 'sessions_kind', values: ['login', 'free'] },
  { table: 'omop_mappings', column: 'kind', constraint: 'omop_mappings_kind', values: MAPPING_KINDS },
  {
    table: 'research_subjects',
    column: 'status',
    constraint: 'research_subjects_status',
    values: TASK_STATUSES,
  },
  {
    table: 'research_subject_members',
    column: 'role',
    constraint: 'research_subject_members_role',
    values: PROJECT_ROLES,
  },
  {
    table: 'research_status_log',
    column: 'from_status',
    constraint: 'research_status_log_from_status',
    values: ['', ...TASK_STATUSES],
  },
  {
    table: 'research_status_log',
    column: 'to_status',
    constraint: 'research_status_log_to_status',
    values: TASK_STATUSES,
  },
  {
    table: 'research_datasets',
    column: 'status',
    constraint: 'research_datasets_status',
    values: ['building', 'ready', 'failed'],
  },
  { table: 'mc_topics', column: 'status', constraint: 'mc_topics_status', values: TASK_STATUSES },
  {
    table: 'mc_topic_centers',
    column: 'role',
    constraint: 'mc_topic_centers_role',
    values: ['lead', 'member'],
  },
  {
    table: 'mc_topic_centers',
    column: 'status',
    constraint: 'mc_topic_centers_status',
    values: ['pending', 'accepted', 'declined', 'withdrawn', 'left'],
  },
  {
    table: 'mc_topic_status_log',
    column: 'from_status',
    constraint: 'mc_topic_status_log_from_status',
    values: TASK_STATUSES,
  },
  {
    table: 'mc_topic_status_log',
    column: 'to_status',
    constraint: 'mc_topic_status_log_to_status',
    values: TASK_STATUSES,
  },
  {
    table: 'schedule_runs',
    column: 'trigger',
    constraint: 'schedule_runs_trigger',
    values: ['schedule', 'manual'],
  },
];

/** The driver's error under drizzle's wrapper: SQLSTATE and constraint name. */
function pgError(e: unknown): { code?: string; constraint?: string } {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined; x; x = x.cause as typeof x)
    if (typeof x.code === 'string') return x as { code: string; constraint?: string };
  return {};
}

class Undo extends Error {}

describe('CHECK constraints on word columns', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await signIn(t.app, 'admin');
    await makeObjectsInDemoApp(t.app, admin);
    // A status move of the fixture's multi-center topic, so its status log has a row.
    const topics = rowsOf<{ id: number }>(await t.app.db.execute(sql`select id from mc_topics limit 1`));
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/v0.1/mc/topics/${topics[0]!.id}/status`,
      headers: { WeAppAuthorization: admin },
      payload: { to: 'recruiting' },
    });
    expect(moved.statusCode).toBe(200);
    // A run of the fixture's schedule ("run now"), so schedule_runs has a row.
    const schedules = rowsOf<{ id: number }>(await t.app.db.execute(sql`select id from schedules limit 1`));
    const run = await t.app.inject({
      method: 'POST',
      url: `/api/v0.1/task-scheduling/schedules/${schedules[0]!.id}/run`,
      headers: { WeAppAuthorization: admin },
      payload: {},
    });
    expect(run.statusCode).toBe(200);
  }, 180_000);
  afterAll(async () => t?.close());

  it('every checked column has its constraint in the database', async () => {
    const names = rowsOf<{ conname: string }>(
      await t.app.db.execute(sql`select conname from pg_constraint where contype = 'c'`),
    ).map((r) => r.conname);
    for (const c of CHECKED) expect(names, c.constraint).toContain(c.constraint);
  });

  it.each(CHECKED)('$constraint: the words the code writes are stored, any other is refused', async (c) => {
    const db = t.app.db;
    const col = sql.identifier(c.column);
    const table = sql.identifier(c.table);
    let refused: { code?: string; constraint?: string } = {};
    await db
      .transaction(async (tx) => {
        // What the seeded app wrote passes already (the constraint was there when it was written).
        // The row is locked: a background job (a library push, a schedule run) that updates it
        // meanwhile would move its ctid and the updates below would find nothing.
        const [first] = rowsOf<{ ctid: string }>(
          await tx.execute(sql`select ctid::text from ${table} limit 1 for update`),
        );
        expect(first, `a row of ${c.table}`).toBeDefined();
        let ctid = first!.ctid;
        for (const v of c.values) {
          const r = await tx.execute(
            sql`update ${table} set ${col} = ${v} where ctid = ${ctid}::tid returning ctid::text, ${col}::text as v`,
          );
          const [row] = rowsOf<{ ctid: string; v: string }>(r);
          expect(row?.v).toBe(v);
          ctid = row!.ctid;
        }
        refused = await tx
          .transaction((sp) =>
            sp.execute(sql`update ${table} set ${col} = 'notAWord' where ctid = ${ctid}::tid`),
          )
          .then(
            () => ({}),
            (e: unknown) => pgError(e),
          );
        throw new Undo();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Undo)) throw e;
      });
    // 23514: check_violation, naming the constraint.
    expect(refused).toMatchObject({ code: '23514', constraint: c.constraint });
  });
});
