import {
  type CenterCounts,
  type CountMask,
  type CreatedId,
  type DetectionIssue,
  isSmall,
  isTaskStatus,
  type Locale,
  type McCaseInput,
  type McCenterRole,
  type McCenterStatus,
  type McCenterAnswer,
  type McCenterCheck,
  type McInvitableCenter,
  type McInvitation,
  type McInvited,
  type McInviteInput,
  type McMoved,
  type McOwnCase,
  type McPatientOption,
  type McPooled,
  type McProtocol,
  type McSettings,
  type McSettingsInput,
  type McTopicCenter,
  type McTopicDetail,
  type McTopicInput,
  type McTopicSummary,
  type McTopicVariable,
  type McWithdrawn,
  maskedCount,
  type mcTopicRow,
  type PooledCount,
  type PooledSummary,
  PRODUCT_ID,
  suppressionMasks,
  type TaskStatus,
} from '@crdp/core';
import { describe } from '@crdp/stats';
import { and, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import {
  appProducts,
  apps,
  mcTopicCases,
  mcTopicCenters,
  mcTopicStatusLog,
  mcTopics,
  patients,
} from '../db/schema/index.js';
import { AppError, invalidField, notFound } from '../http/errors.js';
import { statusLabel, TRANSITIONS } from '../research/status.js';
import { readConfigValue } from '../site/service.js';

/**
 * Multi-center topics. A topic is led by one app (center) and joined by others. Each center
 * enters and reads only its own cases; what crosses app boundaries is aggregate only (counts,
 * summaries, issue counts per center), never a row of another hospital's patient. The request
 * and answer shapes are the contracts of @crdp/core (contracts/multicenter.ts).
 */
type TopicVariable = McTopicVariable;
/** A stored topic as answered (its dates still `Date`s: the contract writes them out). */
type TopicRow = z.input<typeof mcTopicRow>;
const topicRow = (t: typeof mcTopics.$inferSelect): TopicRow => ({
  ...t,
  protocol: t.protocol as McProtocol,
  variables: t.variables as McTopicVariable[],
});

const invalid = invalidField;

export async function assertMultiCenter(db: Tx, appId: number) {
  const mode = await readConfigValue(db, appId, 'site', 'features', 'mode');
  if (mode !== 'multi-center') throw new AppError(403, 'multiCenter.off');
}

/**
 * The one answer for an app that cannot be invited, whether it does not exist, lacks the research
 * product or has not switched multi-center mode on: nobody learns which hospitals exist.
 */
const noSuchCenter = (field: string) =>
  invalid(
    field,
    '没有已开启多中心模式的这个中心',
    'no center with multi-center mode switched on has this id or code',
  );

/** The app, when it holds the research product and runs in multi-center mode; else null. */
async function invitableApp(db: Tx, by: { appId: number } | { appCode: string }) {
  const [row] = await db
    .select({ appId: apps.appId, name: apps.name, shortName: apps.appShortName })
    .from(apps)
    .innerJoin(appProducts, and(eq(appProducts.appId, apps.appId), eq(appProducts.productId, PRODUCT_ID)))
    .where('appId' in by ? eq(apps.appId, by.appId) : sql`lower(${apps.appShortName}) = lower(${by.appCode})`)
    .limit(1);
  if (!row) return null;
  const mode = await readConfigValue(db, row.appId, 'site', 'features', 'mode');
  return mode === 'multi-center' ? row : null;
}

/**
 * The life of a topic, with the task statuses of spec 001 section 3 (the same moves as a
 * research subject): the leading center moves it; members follow.
 *
 *   staged ─► recruiting ⇄ recruitmentStopped ─► dataPreparing ⇄ dataPrepared ─► calculationDone ─► topicConcluded
 * Any status before the conclusion may be closed; a closed topic may be reopened to staged.
 * The calculation may send the topic back to data preparing (a center fixes its data).
 */
export const TOPIC_MOVES: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = TRANSITIONS;
export const topicMoves = (from: string): readonly TaskStatus[] =>
  isTaskStatus(from) ? (TOPIC_MOVES[from] ?? []) : [];
/** Centers enter and correct cases until the data is declared prepared. */
export const ENTRY_STATUSES: readonly TaskStatus[] = [
  'staged',
  'recruiting',
  'recruitmentStopped',
  'dataPreparing',
];

/** The topic and this app's role in it; a topic the app does not take part in is 404. */
export async function topicFor(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select({ t: mcTopics, role: mcTopicCenters.role })
    .from(mcTopics)
    .innerJoin(
      mcTopicCenters,
      and(
        eq(mcTopicCenters.topicId, mcTopics.id),
        eq(mcTopicCenters.appId, appId),
        eq(mcTopicCenters.status, 'accepted'),
      ),
    )
    .where(eq(mcTopics.id, id));
  if (!row) throw notFound('topic');
  return { topic: row.t, role: row.role as 'lead' | 'member' };
}

export async function createTopic(
  db: Db,
  req: FastifyRequest,
  appId: number,
  userId: number,
  input: McTopicInput,
): Promise<TopicRow> {
  await assertMultiCenter(db, appId);
  const others = [...new Set(input.centerAppIds.filter((a) => a !== appId))];
  const invited: Array<{ appId: number; name: string }> = [];
  for (const a of others) {
    const found = await invitableApp(db, { appId: a });
    if (!found) throw noSuchCenter(`centerAppIds.${input.centerAppIds.indexOf(a)}`);
    invited.push(found);
  }
  const [lead] = await db.select({ name: apps.name }).from(apps).where(eq(apps.appId, appId));
  return db.transaction(async (tx) => {
    const [t] = await tx
      .insert(mcTopics)
      .values({
        appId,
        name: input.name,
        typeCode: input.typeCode,
        protocol: input.protocol,
        variables: input.variables,
        createdBy: userId,
      })
      .returning();
    await tx
      .insert(mcTopicCenters)
      .values([
        { topicId: t!.id, appId, role: 'lead', status: 'accepted' },
        ...others.map((a) => ({ topicId: t!.id, appId: a, role: 'member', status: 'pending' })),
      ]);
    await audit(tx, req, {
      action: 'create',
      entity: 'mc_topic',
      entityId: t!.id,
      after: { ...t, centers: [appId], invited: others },
    });
    for (const c of invited)
      await auditBothSides(tx, req, 'invite', { id: t!.id, name: t!.name }, lead?.name ?? '', c);
    return topicRow(t!);
  });
}

export async function listTopics(db: Tx, appId: number): Promise<McTopicSummary[]> {
  const rows = await db
    .select({ t: mcTopics, role: mcTopicCenters.role, leadName: apps.name })
    .from(mcTopicCenters)
    .innerJoin(mcTopics, eq(mcTopics.id, mcTopicCenters.topicId))
    .innerJoin(apps, eq(apps.appId, mcTopics.appId))
    .where(and(eq(mcTopicCenters.appId, appId), eq(mcTopicCenters.status, 'accepted')))
    .orderBy(sql`${mcTopics.id} desc`);
  const counts = await db
    .select({ topicId: mcTopicCenters.topicId, n: sql<number>`count(*)::int` })
    .from(mcTopicCenters)
    .where(eq(mcTopicCenters.status, 'accepted'))
    .groupBy(mcTopicCenters.topicId);
  return rows.map((r) => ({
    id: r.t.id,
    name: r.t.name,
    typeCode: r.t.typeCode,
    status: r.t.status,
    role: r.role as McCenterRole,
    leadCenter: r.leadName,
    centers: Number(counts.find((c) => c.topicId === r.t.id)?.n ?? 1),
    createdAt: r.t.createdAt.toISOString(),
  }));
}

export async function topicDescription(db: Tx, appId: number, id: number): Promise<McTopicDetail> {
  const { topic, role } = await topicFor(db, appId, id);
  // The lead sees every invitation and its answer; a member only the centers taking part.
  const centers = await db
    .select({
      appId: mcTopicCenters.appId,
      role: mcTopicCenters.role,
      status: mcTopicCenters.status,
      name: apps.name,
    })
    .from(mcTopicCenters)
    .innerJoin(apps, eq(apps.appId, mcTopicCenters.appId))
    .where(
      and(
        eq(mcTopicCenters.topicId, id),
        role === 'lead' ? undefined : eq(mcTopicCenters.status, 'accepted'),
      ),
    )
    // The leading center first, then the others in the order they joined the site.
    .orderBy(sql`${mcTopicCenters.role} <> 'lead'`, mcTopicCenters.appId);
  const history = await db
    .select()
    .from(mcTopicStatusLog)
    .where(eq(mcTopicStatusLog.topicId, id))
    .orderBy(mcTopicStatusLog.id);
  return {
    id: topic.id,
    name: topic.name,
    typeCode: topic.typeCode,
    status: topic.status,
    protocol: topic.protocol as McProtocol,
    variables: topic.variables as McTopicVariable[],
    minCellCount: topic.minCellCount,
    role,
    centers: centers as McTopicCenter[],
    /** Moves the caller may make now: only the leading center moves a topic. */
    moves: role === 'lead' ? [...topicMoves(topic.status)] : [],
    canEnter: ENTRY_STATUSES.includes(topic.status as TaskStatus),
    history: history.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      userName: h.userName,
      at: h.at.toISOString(),
    })),
  };
}

export async function updateProtocol(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  protocol: McProtocol,
): Promise<TopicRow> {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(mcTopics)
      .set({ protocol, updatedAt: new Date() })
      .where(eq(mcTopics.id, id))
      .returning();
    await audit(tx, req, {
      action: 'update',
      entity: 'mc_topic',
      entityId: id,
      before: topic.protocol,
      after: protocol,
    });
    return topicRow(after!);
  });
}

/** A center enters a case for one of its own patients. */
export async function enterCase(
  db: Db,
  req: FastifyRequest,
  appId: number,
  userId: number,
  id: number,
  input: McCaseInput,
): Promise<CreatedId> {
  await assertMultiCenter(db, appId);
  const { topic } = await topicFor(db, appId, id);
  if (!ENTRY_STATUSES.includes(topic.status as TaskStatus))
    throw new AppError(409, 'multiCenter.frozen', {
      status: statusLabel(topic.status, req.locale),
      allowed: ENTRY_STATUSES.map((c) => statusLabel(c, req.locale)).join(
        req.locale === 'zh-CN' ? '、' : ', ',
      ),
    });
  const [p] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, input.patientId), eq(patients.appId, appId)));
  if (!p) throw invalid('patientId', '没有这名患者', 'no such patient');
  const vars = topic.variables as TopicVariable[];
  for (const k of Object.keys(input.values))
    if (!vars.some((v) => v.key === k))
      throw invalid(`values.${k}`, '不是本课题的变量', 'not a variable of the topic');
  for (const v of vars) {
    const x = input.values[v.key];
    if (typeof x === 'string' && (v.min !== undefined || v.max !== undefined) && x.trim() !== '')
      throw invalid(`values.${v.key}`, `${v.label}应为数字`, `${v.label} must be a number`);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcTopicCases)
      .values({ topicId: id, appId, patientId: input.patientId, values: input.values, enteredBy: userId })
      .onConflictDoUpdate({
        target: [mcTopicCases.topicId, mcTopicCases.patientId],
        set: { values: input.values, enteredAt: new Date() },
      })
      .returning();
    await audit(tx, req, { action: 'upsert', entity: 'mc_topic_case', entityId: row!.id, after: row });
    return { id: row!.id };
  });
}

/** This center's own cases (rows of its own patients only). */
export async function ownCases(db: Tx, appId: number, id: number): Promise<McOwnCase[]> {
  await topicFor(db, appId, id);
  const rows = await db
    .select({
      id: mcTopicCases.id,
      patientId: mcTopicCases.patientId,
      mrn: patients.mrn,
      values: mcTopicCases.values,
      enteredAt: mcTopicCases.enteredAt,
    })
    .from(mcTopicCases)
    .innerJoin(patients, eq(patients.id, mcTopicCases.patientId))
    .where(and(eq(mcTopicCases.topicId, id), eq(mcTopicCases.appId, appId)));
  return rows.map((r) => ({
    ...r,
    values: r.values as McOwnCase['values'],
    enteredAt: r.enteredAt.toISOString(),
  }));
}

type CaseRow = {
  appId: number;
  patientId: number;
  mrn: string;
  values: Record<string, unknown>;
  nationalId: string;
  name: string;
  birthDate: string | null;
};

async function casesOf(db: Tx, topicId: number, appIds: number[]): Promise<CaseRow[]> {
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
 * Pooled, de-identified aggregates of the accepted centers: the lead sees every center, a member
 * its own. Other centers' small counts are hidden (see `suppressionMasks` in @crdp/core); only
 * counts, means and SDs cross hospitals (no minimum, maximum or quantile: those are one patient's
 * value).
 */
export async function pooled(db: Tx, appId: number, id: number): Promise<McPooled> {
  const d = await topicDescription(db, appId, id);
  const accepted = d.centers.filter((c) => c.status === 'accepted');
  const visible = d.role === 'lead' ? accepted : accepted.filter((c) => c.appId === appId);
  const cases = await casesOf(
    db,
    id,
    visible.map((c) => c.appId),
  );
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
  const byCenter = visible.map((c) => cases.filter((r) => r.appId === c.appId));
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
  const d = await topicDescription(db, appId, id);
  const vars = d.variables as TopicVariable[];
  const accepted = d.centers.filter((c) => c.status === 'accepted');
  const visible = d.role === 'lead' ? accepted : accepted.filter((c) => c.appId === appId);
  const cases = await casesOf(
    db,
    id,
    visible.map((c) => c.appId),
  );
  const min = d.minCellCount;
  const byCenter = visible.map((c) => cases.filter((r) => r.appId === c.appId));
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

export async function ownedTopicIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: mcTopicCenters.topicId })
    .from(mcTopicCenters)
    .where(eq(mcTopicCenters.appId, appId))
    .limit(3);
  return rows.map((r) => ({ id: r.id }));
}

/** The leading center moves the topic; an illegal move is refused with the moves allowed now. */
export async function moveTopic(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  to: TaskStatus,
): Promise<McMoved> {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  const from = topic.status;
  const allowed = topicMoves(from);
  if (!allowed.includes(to))
    throw new AppError(409, 'multiCenter.illegalMove', {
      from: statusLabel(from, req.locale),
      to: statusLabel(to, req.locale),
      allowed: allowed.length
        ? allowed.map((c) => `${statusLabel(c, req.locale)} (${c})`).join(', ')
        : req.locale === 'zh-CN'
          ? '无（终态）'
          : 'none (final)',
    });
  const auth = req.auth!;
  return db.transaction(async (tx) => {
    // Compare-and-set: two people moving at once cannot both win from the same status.
    const [after] = await tx
      .update(mcTopics)
      .set({ status: to, updatedAt: new Date() })
      .where(and(eq(mcTopics.id, id), eq(mcTopics.status, from)))
      .returning();
    if (!after)
      throw new AppError(409, 'multiCenter.illegalMove', {
        from: statusLabel(from, req.locale),
        to: statusLabel(to, req.locale),
        allowed: '-',
      });
    await tx.insert(mcTopicStatusLog).values({
      appId,
      topicId: id,
      fromStatus: from,
      toStatus: to,
      userId: auth.userId,
      userName: auth.userName,
    });
    await audit(tx, req, {
      action: 'status',
      entity: 'mc_topic',
      entityId: id,
      before: { status: from },
      after: { status: to },
    });
    return { id, status: after.status, moves: [...topicMoves(after.status)] };
  });
}

type Side = { appId: number; name: string };

/**
 * One audit row in each hospital for a step of an invitation: the acting center's row names the
 * user; the other center's row names only the acting center (no user of another hospital).
 */
async function auditBothSides(
  tx: Tx,
  req: FastifyRequest,
  action: 'invite' | 'withdraw' | 'accept' | 'decline' | 'leave',
  topic: { id: number; name: string },
  lead: string,
  member: Side,
) {
  const actingIsLead = action === 'invite' || action === 'withdraw';
  const after = { topicId: topic.id, topic: topic.name, leadCenter: lead, center: member.name };
  await audit(tx, req, { action, entity: 'mc_topic_center', entityId: `${topic.id}:${member.appId}`, after });
  const [leadApp] = actingIsLead
    ? [null]
    : await tx.select({ appId: mcTopics.appId }).from(mcTopics).where(eq(mcTopics.id, topic.id));
  await audit(tx, req, {
    action,
    entity: 'mc_topic_center',
    entityId: `${topic.id}:${member.appId}`,
    after,
    appId: actingIsLead ? member.appId : leadApp!.appId,
    userId: null,
    userName: actingIsLead ? lead : member.name,
  });
}

const appName = async (db: Tx, appId: number) =>
  (await db.select({ name: apps.name }).from(apps).where(eq(apps.appId, appId)))[0]?.name ?? '';

/**
 * The leading center invites an app in multi-center mode (by id from the list, or by its code).
 * A declined, withdrawn or left center may be invited again.
 */
export async function inviteCenter(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  input: McInviteInput,
): Promise<McInvited> {
  await assertMultiCenter(db, appId);
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  const field = input.appId !== undefined ? 'appId' : 'appCode';
  const found = await invitableApp(
    db,
    input.appId !== undefined ? { appId: input.appId } : { appCode: input.appCode! },
  );
  if (!found || found.appId === appId) throw noSuchCenter(field);
  const lead = await appName(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcTopicCenters)
      .values({ topicId: id, appId: found.appId, role: 'member', status: 'pending' })
      .onConflictDoUpdate({
        target: [mcTopicCenters.topicId, mcTopicCenters.appId],
        set: { status: 'pending', joinedAt: new Date(), respondedAt: null },
        setWhere: inArray(mcTopicCenters.status, ['declined', 'withdrawn', 'left']),
      })
      .returning();
    if (!row) throw new AppError(409, 'multiCenter.alreadyCenter');
    await auditBothSides(tx, req, 'invite', topic, lead, found);
    return { appId: found.appId, name: found.name, role: 'member' as const, status: row.status as McCenterStatus };
  });
}

/** The leading center takes back an invitation not yet answered. */
export async function withdrawInvitation(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  centerAppId: number,
): Promise<McWithdrawn> {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  const lead = await appName(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: 'withdrawn', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, centerAppId),
          eq(mcTopicCenters.status, 'pending'),
        ),
      )
      .returning();
    if (!row) throw new AppError(404, 'multiCenter.noInvitation');
    const name = await appName(tx, centerAppId);
    await auditBothSides(tx, req, 'withdraw', topic, lead, { appId: centerAppId, name });
    return { appId: centerAppId, status: row.status as McCenterStatus };
  });
}

/**
 * Invitations waiting for this center's answer: the topic's title, the leading hospital and what
 * taking part shares (aggregates only); nothing of the topic's data.
 */
export async function listInvitations(db: Tx, appId: number): Promise<McInvitation[]> {
  const rows = await db
    .select({
      topicId: mcTopics.id,
      topic: mcTopics.name,
      leadCenter: apps.name,
      invitedAt: mcTopicCenters.joinedAt,
    })
    .from(mcTopicCenters)
    .innerJoin(mcTopics, eq(mcTopics.id, mcTopicCenters.topicId))
    .innerJoin(apps, eq(apps.appId, mcTopics.appId))
    .where(and(eq(mcTopicCenters.appId, appId), eq(mcTopicCenters.status, 'pending')))
    .orderBy(sql`${mcTopicCenters.joinedAt} desc`);
  return rows.map((r) => ({
    ...r,
    invitedAt: r.invitedAt.toISOString(),
    /** What the leading center will see of this center: aggregates only, small cells hidden. */
    shares: 'aggregates' as const,
  }));
}

/** The invited center's administrator accepts or declines; only a pending invitation can be answered. */
export async function answerInvitation(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  answer: 'accept' | 'decline',
): Promise<McCenterAnswer> {
  if (answer === 'accept') await assertMultiCenter(db, appId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: answer === 'accept' ? 'accepted' : 'declined', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, appId),
          eq(mcTopicCenters.status, 'pending'),
        ),
      )
      .returning();
    if (!row) throw new AppError(404, 'multiCenter.noInvitation');
    const [topic] = await tx
      .select({ id: mcTopics.id, name: mcTopics.name, leadApp: mcTopics.appId })
      .from(mcTopics)
      .where(eq(mcTopics.id, id));
    await auditBothSides(tx, req, answer, topic!, await appName(tx, topic!.leadApp), {
      appId,
      name: await appName(tx, appId),
    });
    return { topicId: id, status: row.status as McCenterStatus };
  });
}

/** An accepted member stops taking part; its cases stay its own and leave the pooled results. */
export async function leaveTopic(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
): Promise<McCenterAnswer> {
  const { topic, role } = await topicFor(db, appId, id);
  if (role === 'lead') throw new AppError(409, 'multiCenter.leadStays');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mcTopicCenters)
      .set({ status: 'left', respondedAt: new Date() })
      .where(
        and(
          eq(mcTopicCenters.topicId, id),
          eq(mcTopicCenters.appId, appId),
          eq(mcTopicCenters.status, 'accepted'),
        ),
      )
      .returning();
    if (!row) throw notFound('topic');
    await auditBothSides(tx, req, 'leave', topic, await appName(tx, topic.appId), {
      appId,
      name: await appName(tx, appId),
    });
    return { topicId: id, status: row.status as McCenterStatus };
  });
}

/** The leading center sets the minimum count of a pooled cell (audited with before and after). */
export async function updateSettings(
  db: Db,
  req: FastifyRequest,
  appId: number,
  id: number,
  input: McSettingsInput,
): Promise<McSettings> {
  const { topic, role } = await topicFor(db, appId, id);
  if (role !== 'lead') throw new AppError(403, 'multiCenter.notLead');
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(mcTopics)
      .set({ minCellCount: input.minCellCount, updatedAt: new Date() })
      .where(eq(mcTopics.id, id))
      .returning();
    await audit(tx, req, {
      action: 'settings',
      entity: 'mc_topic',
      entityId: id,
      before: { minCellCount: topic.minCellCount },
      after: { minCellCount: after!.minCellCount },
    });
    return { id, minCellCount: after!.minCellCount };
  });
}

/**
 * Centers a topic can invite: other apps holding the research product that switched
 * multi-center mode on. Only names cross the boundary.
 */
export async function invitableCenters(db: Tx, appId: number): Promise<McInvitableCenter[]> {
  await assertMultiCenter(db, appId);
  const rows = await db
    .selectDistinct({ appId: apps.appId, name: apps.name, shortName: apps.appShortName })
    .from(apps)
    .innerJoin(appProducts, and(eq(appProducts.appId, apps.appId), eq(appProducts.productId, PRODUCT_ID)))
    .where(sql`${apps.appId} <> ${appId}`)
    .orderBy(apps.appId);
  const modes = await Promise.all(rows.map((r) => readConfigValue(db, r.appId, 'site', 'features', 'mode')));
  return rows.filter((_, i) => modes[i] === 'multi-center');
}

const mask = (name: string) =>
  name ? `${[...name][0]}${'*'.repeat(Math.max(1, [...name].length - 1))}` : '';

/** This center's own patients, for the case-entry picker (by MRN; names masked). */
export async function ownPatients(
  db: Tx,
  appId: number,
  id: number,
  keyword: string | undefined,
): Promise<McPatientOption[]> {
  await topicFor(db, appId, id);
  const k = keyword?.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .select({ id: patients.id, mrn: patients.mrn, name: patients.name, gender: patients.gender })
    .from(patients)
    .where(
      and(
        eq(patients.appId, appId),
        k ? or(ilike(patients.mrn, `%${k}%`), ilike(patients.name, `%${k}%`)) : undefined,
      ),
    )
    .orderBy(sql`${patients.id} desc`)
    .limit(50);
  return rows.map((r) => ({ id: r.id, mrn: r.mrn, name: mask(r.name), gender: r.gender }));
}
