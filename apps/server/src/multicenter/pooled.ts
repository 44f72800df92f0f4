import {
  type CenterCounts,
  type CountMask,
  type DetectionIssue,
  isSmall,
  type Locale,
  type McCenterCheck,
  type McPooled,
  type McTopicVariable,
  maskedCount,
  type PooledCount,
  type PooledSummary,
  suppressionMasks,
} from '@crdp/core';
import { describe } from '@crdp/stats';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { mcTopicCases, patients } from '../db/schema/index.js';
import { topicDescription } from './topics.js';

/**
 * What crosses hospitals: pooled counts, means and SDs per center and in total, and the data
 * checks per center, with other centers' small cells hidden (README.md, Small-cell suppression).
 */
type TopicVariable = McTopicVariable;

type CaseRow = {
  appId: number;
  patientId: number;
  mrn: string;
  values: Record<string, unknown>;
  nationalId: string;
  name: string;
  birthDate: string | null;
};

export async function casesOf(db: Tx, topicId: number, appIds: number[]): Promise<CaseRow[]> {
  if (!appIds.length) return [];
  const rows = await db
    .select({
      appId: mcTopicCases.appId,
      patientId: mcTopicCases.patientId,
      mrn: patients.mrn,
      values: mcTopicCases.values,
      nationalId: patients.nationalId,
      name: patients.name,
      birthDate: patients.birthDate,
    })
    .from(mcTopicCases)
    .innerJoin(patients, eq(patients.id, mcTopicCases.patientId))
    .where(and(eq(mcTopicCases.topicId, topicId), inArray(mcTopicCases.appId, appIds)));
  return rows.map((r) => ({ ...r, values: r.values as Record<string, unknown> }));
}

/**
 * A topic with the accepted centers the caller sees (every one for the lead, else its own) and
 * their cases, all together and by center.
 */
async function visibleCases(db: Tx, appId: number, id: number) {
  const d = await topicDescription(db, appId, id);
  const accepted = d.centers.filter((c) => c.status === 'accepted');
  const visible = d.role === 'lead' ? accepted : accepted.filter((c) => c.appId === appId);
  const cases = await casesOf(
    db,
    id,
    visible.map((c) => c.appId),
  );
  return { d, visible, cases, byCenter: visible.map((c) => cases.filter((r) => r.appId === c.appId)) };
}

/**
 * Pooled, de-identified aggregates of the accepted centers: the lead sees every center, a member
 * its own. Other centers' small counts are hidden (see `suppressionMasks` in @crdp/core); only
 * counts, means and SDs cross hospitals (no minimum, maximum or quantile: those are one patient's
 * value).
 */
export async function pooled(db: Tx, appId: number, id: number): Promise<McPooled> {
  const { d, visible, cases, byCenter } = await visibleCases(db, appId, id);
  const vars = d.variables as TopicVariable[];
  const keys = vars.map((v) => v.key);
  const describeRows = (rows: CaseRow[]) =>
    vars.map((v) => describe(rows.map((r) => r.values[v.key] ?? null)));
  const counts = (rows: CaseRow[], own: boolean): CenterCounts => ({
    own,
    cases: rows.length,
    variables: Object.fromEntries(
      describeRows(rows).map((x, i) => [keys[i]!, { n: x.n, missing: x.missing }]),
    ),
  });
  const masks = suppressionMasks(
    visible.map((c, i) => counts(byCenter[i]!, c.appId === appId)),
    keys,
    d.minCellCount,
  );
  const summarise = (rows: CaseRow[], m: CountMask): PooledSummary => ({
    cases: maskedCount(rows.length, m.cases),
    variables: describeRows(rows).map((x, i) => {
      const v = vars[i]!;
      const shown = m.n[v.key] === null && x.kind === 'numeric';
      return {
        key: v.key,
        label: v.label,
        n: maskedCount(x.n, m.n[v.key] ?? null),
        missing: maskedCount(x.missing, m.missing[v.key] ?? null),
        mean: shown ? x.mean : null,
        sd: shown ? x.sd : null,
      };
    }),
  });
  return {
    role: d.role,
    minCellCount: d.minCellCount,
    total: summarise(cases, masks.total),
    centers: visible.map((c, i) => ({
      appId: c.appId,
      name: c.name,
      own: c.appId === appId,
      ...summarise(byCenter[i]!, masks.centers[i]!),
    })),
  };
}

export type Issue = DetectionIssue;

/** Data-quality checks per center: completeness, values out of range, duplicate patients; `detail` in `locale`. */
export function detectIssues(vars: TopicVariable[], rows: CaseRow[], locale: Locale = 'zh-CN'): Issue[] {
  const zh = locale === 'zh-CN';
  const issues: Issue[] = [];
  const seen = new Map<string, { id: number; mrn: string }>();
  for (const r of rows) {
    for (const v of vars) {
      const x = r.values[v.key];
      if (x === undefined || x === null || x === '') {
        if (v.required)
          issues.push({
            kind: 'missing',
            variable: v.key,
            label: v.label,
            patientId: r.patientId,
            mrn: r.mrn,
            detail: zh ? `${v.label}为空` : `${v.label} is empty`,
          });
        continue;
      }
      if (typeof x === 'number' && ((v.min !== undefined && x < v.min) || (v.max !== undefined && x > v.max)))
        issues.push({
          kind: 'outOfRange',
          variable: v.key,
          label: v.label,
          value: x,
          min: v.min,
          max: v.max,
          patientId: r.patientId,
          mrn: r.mrn,
          detail: zh
            ? `${v.label} = ${x}，应在 ${v.min ?? '-∞'}..${v.max ?? '∞'} 之间`
            : `${v.label} = ${x}, expected ${v.min ?? '-∞'}..${v.max ?? '∞'}`,
        });
    }
    const key = r.nationalId || `${r.name}|${r.birthDate ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined)
      issues.push({
        kind: 'duplicate',
        patientId: r.patientId,
        mrn: r.mrn,
        sameAs: first.mrn,
        detail: zh ? `与患者 ${first.mrn} 是同一人` : `same person as patient ${first.mrn}`,
      });
    else seen.set(key, { id: r.patientId, mrn: r.mrn });
  }
  return issues;
}

/**
 * Data checks per accepted center. For another center the lead sees counts only, and a count
 * below the topic's minimum is hidden; its missing count (and completeness, which gives it) is also
 * hidden when a missing cell of that center is hidden in the pooled table, so one cannot be
 * worked out from the other.
 */
export async function detection(
  db: Tx,
  appId: number,
  id: number,
  locale: Locale = 'zh-CN',
): Promise<McCenterCheck[]> {
  const { d, visible, byCenter } = await visibleCases(db, appId, id);
  const vars = d.variables as TopicVariable[];
  const min = d.minCellCount;
  const masks = suppressionMasks(
    visible.map((c, i) => ({
      own: c.appId === appId,
      cases: byCenter[i]!.length,
      variables: Object.fromEntries(
        vars.map((v) => {
          const x = describe(byCenter[i]!.map((r) => r.values[v.key] ?? null));
          return [v.key, { n: x.n, missing: x.missing }];
        }),
      ),
    })),
    vars.map((v) => v.key),
    min,
  );
  return visible.map((c, i) => {
    const rows = byCenter[i]!;
    const own = c.appId === appId;
    const issues = detectIssues(vars, rows, locale);
    const cells = rows.length * vars.length;
    const missing = issues.filter((x) => x.kind === 'missing').length;
    const outOfRange = issues.filter((x) => x.kind === 'outOfRange').length;
    const duplicate = issues.filter((x) => x.kind === 'duplicate').length;
    const m = masks.centers[i]!;
    const fewCases = !own && isSmall(rows.length, min);
    const hide = (x: number, linked = false): PooledCount =>
      own
        ? x
        : isSmall(x, min) || (fewCases && x > 0)
          ? { hidden: 'small' }
          : linked
            ? { hidden: 'complementary' }
            : x;
    const missingLinked = vars.some((v) => v.required && m.missing[v.key] !== null);
    const missingCount = hide(missing, missingLinked);
    const caseCount = own ? rows.length : maskedCount(rows.length, m.cases);
    // Completeness gives the missing count back from the number of cases: shown only with both.
    const complete = typeof missingCount === 'number' && typeof caseCount === 'number' && cells > 0;
    return {
      appId: c.appId,
      name: c.name,
      own,
      cases: caseCount,
      completeness: complete ? (cells - missing) / cells : null,
      counts: { missing: missingCount, outOfRange: hide(outOfRange), duplicate: hide(duplicate) },
      // What to fix names patients only for the center's own cases.
      issues: own ? issues : [],
    };
  });
}
