import {
  type CohortCriteria,
  cohortCriteriaSchema,
  isTaskStatus,
  type ResearchAppUser,
  type ResearchRecruited,
  type ResearchSubject,
  type ResearchSubjectDetail,
  type ResearchSubjectList,
  type ResearchTeam,
  type researchMoved,
  type researchSubjectRecord,
  type TaskStatus,
} from '@crdp/core';
import { and, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { matchPatients } from '../cohort/compile.js';
import { appRowOf, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf } from '../db/paging.js';
import {
  appMembers,
  crfForms,
  patients,
  researchDatasets,
  researchEnrolments,
  researchStatusLog,
  researchSubjectMembers,
  researchSubjects,
  users,
} from '../db/schema/index.js';
import { type RequestContext, type SignedIn, signedIn } from '../http/context.js';
import { AppError, invalidField } from '../http/errors.js';
import { readConfigValue } from '../site/service.js';
import { checkT0Events } from '../t0/refs.js';
import type { ProjectRole, SubjectInput, SubjectPatch, VariableDef } from './inputs.js';
import { allowedMoves, canMove, statusLabel, WORK_STATUSES } from './status.js';
import { listTypes, typeExists } from './types.js';

/** Who acts on research subjects: the session's user in the session's app. */
export type Actor = SignedIn;
/** The signed-in person of a request; a free-access link is out of scope here (403). */
export function actorOf(ctx: RequestContext): Actor {
  if (ctx.auth && ctx.auth.kind !== 'login') throw new AppError(403, 'auth.scope');
  return signedIn(ctx);
}

/** A 400 naming the field, worded in Chinese and English: `invalid('crfFormId', '该表单已归档', 'the form is archived')`. */
export const invalid = invalidField;

export type SubjectRow = typeof researchSubjects.$inferSelect;
/** A subject as stored, as the API answers it (create, change, move). */
export type SubjectRecord = z.input<typeof researchSubjectRecord>;

/** The stored row with its JSON columns typed (they were checked by the contract when written). */
export const subjectRecord = (s: SubjectRow): SubjectRecord => ({
  ...s,
  criteria: s.criteria as CohortCriteria,
  variables: s.variables as VariableDef[],
  centers: s.centers as string[],
});

/** A subject of the actor's app, or 404: another app's ids answer exactly like missing ones. */
export const subjectOf = appRowOf(researchSubjects, 'research_subject');

export async function memberRole(db: Tx, subjectId: number, userId: number): Promise<ProjectRole | null> {
  const [m] = await db
    .select({ role: researchSubjectMembers.role })
    .from(researchSubjectMembers)
    .where(and(eq(researchSubjectMembers.subjectId, subjectId), eq(researchSubjectMembers.userId, userId)));
  return (m?.role as ProjectRole | undefined) ?? null;
}

/** Work on a subject is for its members; the roles, when given, narrow it further. */
export async function assertMember(db: Tx, s: SubjectRow, actor: Actor, roles?: readonly ProjectRole[]) {
  const role = await memberRole(db, s.id, actor.userId);
  if (!role || (roles && !roles.includes(role))) throw new AppError(403, 'research.notMember');
  return role;
}

export function assertStatus(s: SubjectRow, work: keyof typeof WORK_STATUSES, locale: Actor['locale']) {
  const ok = (WORK_STATUSES[work] as readonly string[]).includes(s.status);
  if (!ok)
    throw new AppError(409, 'research.wrongStatus', {
      status: statusLabel(s.status, locale),
      needed: WORK_STATUSES[work].map((c) => statusLabel(c, locale)).join(locale === 'zh-CN' ? '、' : ', '),
    });
}

async function checkRefs(
  db: Tx,
  appId: number,
  input: Omit<Partial<SubjectInput>, 'crfFormId'> & { crfFormId?: number | null | undefined },
  /** The PI the member list is checked against (the stored or the creating one when the input names none). */
  defaultPi: number,
  /** The stored time window, so a patch of one end is checked against the other. */
  stored: { startDate?: string | null; endDate?: string | null } = {},
) {
  // Centers belong to multi-center mode; with the mode off the screen hides them and so does the server.
  if (
    input.centers?.length &&
    (await readConfigValue(db, appId, 'site', 'features', 'mode')) !== 'multi-center'
  )
    throw new AppError(400, 'research.centersOff', {}, 'centers');
  if (input.typeCode && !(await typeExists(db, appId, input.typeCode)))
    throw invalid('typeCode', '没有这个项目类型', 'no such project type');
  if (input.crfFormId) {
    const [f] = await db
      .select({ id: crfForms.id, latestVersion: crfForms.latestVersion, status: crfForms.status })
      .from(crfForms)
      .where(and(eq(crfForms.id, input.crfFormId), eq(crfForms.appId, appId)));
    if (!f) throw invalid('crfFormId', '没有这个表单', 'no such form');
    if (f.latestVersion < 1)
      throw invalid('crfFormId', '该表单还没有发布的版本', 'the form has no published version');
    if (f.status !== 'active') throw invalid('crfFormId', '该表单已归档', 'the form is archived');
  }
  if (input.members)
    await checkMembers(db, appId, input.piUserId ?? defaultPi, input.members, !!input.piUserId);
  else if (input.piUserId) await checkMembers(db, appId, input.piUserId, [], true);
  const start = input.startDate ?? stored.startDate;
  const end = input.endDate ?? stored.endDate;
  if (start && end && start > end)
    throw invalid(
      input.endDate ? 'endDate' : 'startDate',
      `结束日期（${end}）早于开始日期（${start}）`,
      `the time window ends (${end}) before it starts (${start})`,
    );
  const keys = (input.variables ?? []).map((v) => v.key);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw invalid('variables', `变量键 ${dup} 重复使用`, `key ${dup} is used twice`);
  // A zero point names one of the app's T0 events.
  await checkT0Events(
    db,
    appId,
    (input.variables ?? []).flatMap((v) => ('t0EventId' in v && v.t0EventId ? [v.t0EventId] : [])),
    'variables',
  );
}

/**
 * A member list is valid when every person is a user of this app, appears once, and only the
 * principal investigator holds the role pi.
 */
async function checkMembers(
  db: Tx,
  appId: number,
  pi: number,
  members: ReadonlyArray<{ userId: number; role: ProjectRole }>,
  checkPi: boolean,
) {
  members.forEach((m, i) => {
    if (members.findIndex((x) => x.userId === m.userId) !== i)
      throw invalid(`members.${i}.userId`, `用户 ${m.userId} 重复列出`, `user ${m.userId} is listed twice`);
    if (m.role === 'pi' && m.userId !== pi)
      throw invalid(
        `members.${i}.role`,
        '只有课题负责人（piUserId）的角色可以是 pi',
        'only the principal investigator (piUserId) has the role pi',
      );
  });
  const userIds = [...members.map((m) => m.userId), ...(checkPi ? [pi] : [])];
  if (!userIds.length) return;
  const found = await db
    .select({ userId: appMembers.userId })
    .from(appMembers)
    .where(and(eq(appMembers.appId, appId), inArray(appMembers.userId, userIds)));
  const known = new Set(found.map((f) => f.userId));
  const i = members.findIndex((m) => !known.has(m.userId));
  if (i >= 0)
    throw invalid(
      `members.${i}.userId`,
      `用户 ${members[i]!.userId} 不是本应用的用户`,
      `user ${members[i]!.userId} is not a user of this app`,
    );
  if (checkPi && !known.has(pi))
    throw invalid('piUserId', `用户 ${pi} 不是本应用的用户`, `user ${pi} is not a user of this app`);
}

/** The member list with the PI first: the PI is always a member with role pi. */
function memberRows(subjectId: number, pi: number, members: SubjectInput['members']) {
  const map = new Map<number, ProjectRole>();
  for (const m of members) map.set(m.userId, m.role);
  map.set(pi, 'pi');
  return [...map.entries()].map(([userId, role]) => ({ subjectId, userId, role }));
}

export async function createSubject(db: Db, actor: Actor, input: SubjectInput): Promise<SubjectRecord> {
  await checkRefs(db, actor.appId, input, input.piUserId ?? actor.userId);
  return db.transaction(async (tx) => {
    const pi = input.piUserId ?? actor.userId;
    const [row] = await tx
      .insert(researchSubjects)
      .values({
        appId: actor.appId,
        name: input.name,
        typeCode: input.typeCode,
        description: input.description,
        piUserId: pi,
        startDate: input.startDate ?? null,
        endDate: input.endDate ?? null,
        targetSize: input.targetSize,
        criteria: input.criteria,
        variables: input.variables,
        crfFormId: input.crfFormId ?? null,
        centers: input.centers,
        status: 'staged',
        createdBy: actor.userId,
      })
      .returning();
    const members = memberRows(row!.id, pi, input.members);
    // The creator keeps a hand in the subject they made.
    if (!members.some((m) => m.userId === actor.userId))
      members.push({ subjectId: row!.id, userId: actor.userId, role: 'coordinator' });
    await tx.insert(researchSubjectMembers).values(members);
    await tx.insert(researchStatusLog).values({
      appId: actor.appId,
      subjectId: row!.id,
      fromStatus: '',
      toStatus: 'staged',
      userId: actor.userId,
      userName: actor.userName,
      reason: 'created',
    });
    await audit(tx, actor, {
      action: 'create',
      entity: 'research_subject',
      entityId: row!.id,
      after: { ...row, members },
    });
    return subjectRecord(row!);
  });
}

export async function updateSubject(
  db: Db,
  actor: Actor,
  id: number,
  patch: SubjectPatch,
): Promise<SubjectRecord> {
  const before = await subjectOf(db, actor.appId, id);
  await assertMember(db, before, actor, ['pi', 'coordinator']);
  const designChange =
    patch.criteria !== undefined || patch.variables !== undefined || patch.crfFormId !== undefined;
  if (designChange) assertStatus(before, 'editDesign', actor.locale);
  await checkRefs(db, actor.appId, patch, before.piUserId ?? actor.userId, before);
  return db.transaction(async (tx) => {
    const { members, ...fields } = patch;
    const [after] = await tx
      .update(researchSubjects)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(researchSubjects.id, id))
      .returning();
    if (members || patch.piUserId) {
      const current = await tx
        .select()
        .from(researchSubjectMembers)
        .where(eq(researchSubjectMembers.subjectId, id));
      const list = members ?? current.map((m) => ({ userId: m.userId, role: m.role as ProjectRole }));
      await tx.delete(researchSubjectMembers).where(eq(researchSubjectMembers.subjectId, id));
      await tx.insert(researchSubjectMembers).values(memberRows(id, after!.piUserId ?? actor.userId, list));
    }
    await audit(tx, actor, {
      action: 'update',
      entity: 'research_subject',
      entityId: id,
      before,
      after: { ...after, members },
    });
    return subjectRecord(after!);
  });
}

/** The members of a subject with their names, the PI first. */
export async function subjectMembers(db: Tx, subjectId: number) {
  const rows = await db
    .select({
      userId: researchSubjectMembers.userId,
      role: researchSubjectMembers.role,
      userName: users.userName,
      nickname: users.nickname,
    })
    .from(researchSubjectMembers)
    .innerJoin(users, eq(users.userId, researchSubjectMembers.userId))
    .where(eq(researchSubjectMembers.subjectId, subjectId))
    .orderBy(researchSubjectMembers.userId);
  const typed = rows.map((r) => ({ ...r, role: r.role as ProjectRole }));
  return [...typed.filter((r) => r.role === 'pi'), ...typed.filter((r) => r.role !== 'pi')];
}

/**
 * Replaces the member list (the members panel): for the principal investigator, or anyone whose
 * roles hold the subject edit function. The PI may be handed to another user of the app; the
 * PI is always a member with role pi. Audited with the lists before and after.
 */
export async function setMembers(
  db: Db,
  actor: Actor,
  id: number,
  input: { piUserId?: number | undefined; members: Array<{ userId: number; role: ProjectRole }> },
): Promise<ResearchTeam> {
  const s = await subjectOf(db, actor.appId, id);
  const role = await memberRole(db, id, actor.userId);
  if (role !== 'pi' && !actor.apiIds.has('ResearchSubjectList.edit'))
    throw new AppError(403, 'research.notPi');
  const pi = input.piUserId ?? s.piUserId ?? actor.userId;
  await checkMembers(db, actor.appId, pi, input.members, input.piUserId !== undefined);
  const before = await subjectMembers(db, id);
  return db.transaction(async (tx) => {
    const rows = memberRows(id, pi, input.members);
    await tx.delete(researchSubjectMembers).where(eq(researchSubjectMembers.subjectId, id));
    await tx.insert(researchSubjectMembers).values(rows);
    if (pi !== s.piUserId)
      await tx
        .update(researchSubjects)
        .set({ piUserId: pi, updatedAt: new Date() })
        .where(eq(researchSubjects.id, id));
    await audit(tx, actor, {
      action: 'members',
      entity: 'research_subject',
      entityId: id,
      before: { piUserId: s.piUserId, members: before.map((m) => ({ userId: m.userId, role: m.role })) },
      after: { piUserId: pi, members: rows.map((m) => ({ userId: m.userId, role: m.role })) },
    });
    return { piUserId: pi, members: await subjectMembers(tx, id) };
  });
}

/** Enabled users of the app, for picking the PI and members. */
export async function appUsers(db: Tx, appId: number): Promise<ResearchAppUser[]> {
  return db
    .select({ userId: users.userId, userName: users.userName, nickname: users.nickname })
    .from(users)
    .innerJoin(appMembers, and(eq(appMembers.userId, users.userId), eq(appMembers.appId, appId)))
    .where(eq(users.enabled, true))
    .orderBy(users.userName)
    .limit(1000);
}

export async function deleteSubject(db: Db, actor: Actor, id: number) {
  const before = await subjectOf(db, actor.appId, id);
  await assertMember(db, before, actor, ['pi']);
  if (before.status !== 'staged' && before.status !== 'closed')
    throw new AppError(409, 'research.wrongStatus', {
      status: statusLabel(before.status, actor.locale),
      needed: [statusLabel('staged', actor.locale), statusLabel('closed', actor.locale)].join(', '),
    });
  await db.transaction(async (tx) => {
    await tx.delete(researchSubjects).where(eq(researchSubjects.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'research_subject', entityId: id, before });
  });
}

/** Facts some moves need beyond the table (a dataset to call data prepared...). */
async function moveBlocker(db: Tx, s: SubjectRow, to: TaskStatus): Promise<string | null> {
  if (to === 'dataPrepared') {
    const [d] = await db
      .select({ n: count() })
      .from(researchDatasets)
      .where(and(eq(researchDatasets.subjectId, s.id), eq(researchDatasets.status, 'ready')));
    if (!d?.n) return 'no analysis dataset has been built';
  }
  if (to === 'calculationDone') {
    const res = await db.execute(
      sql`select count(*)::int as n from jobs where app_id = ${s.appId} and kind = 'research.analysis'
        and status = 'succeeded' and (params->>'subjectId')::int = ${s.id}`,
    );
    if (!Number((res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n))
      return 'no analysis has finished';
  }
  return null;
}

/** Moves a subject along the status table; refuses any other move, naming the allowed ones. */
export async function moveSubject(
  db: Db,
  actor: Actor,
  id: number,
  to: TaskStatus,
  reason: string,
): Promise<z.input<typeof researchMoved>> {
  const s = await subjectOf(db, actor.appId, id);
  await assertMember(db, s, actor, ['pi', 'coordinator']);
  const from = s.status as TaskStatus;
  if (!isTaskStatus(from) || !canMove(from, to)) {
    const allowed = allowedMoves(from).map((c) => `${statusLabel(c, actor.locale)} (${c})`);
    throw new AppError(409, 'research.illegalMove', {
      from: statusLabel(from, actor.locale),
      to: statusLabel(to, actor.locale),
      allowed: allowed.length ? allowed.join(', ') : actor.locale === 'zh-CN' ? '无（终态）' : 'none (final)',
    });
  }
  const why = await moveBlocker(db, s, to);
  if (why) throw new AppError(409, 'research.moveBlocked', { to: statusLabel(to, actor.locale), why });
  return db.transaction(async (tx) => {
    // Compare-and-set: two people moving at once cannot both win from the same status.
    const [after] = await tx
      .update(researchSubjects)
      .set({ status: to, updatedAt: new Date() })
      .where(and(eq(researchSubjects.id, id), eq(researchSubjects.status, from)))
      .returning();
    if (!after) throw new AppError(409, 'research.illegalMove', { from: from, to, allowed: '-' });
    const [log] = await tx
      .insert(researchStatusLog)
      .values({
        appId: actor.appId,
        subjectId: id,
        fromStatus: from,
        toStatus: to,
        userId: actor.userId,
        userName: actor.userName,
        reason,
      })
      .returning();
    await audit(tx, actor, {
      action: 'status',
      entity: 'research_subject',
      entityId: id,
      before: { status: from },
      after: { status: to },
      reason,
    });
    return { subject: subjectRecord(after), log: log! };
  });
}

export async function listSubjects(
  db: Tx,
  appId: number,
  q: {
    page: number;
    size: number;
    keyword?: string | undefined;
    status?: string | undefined;
    typeCode?: string | undefined;
    memberId?: number | undefined;
  },
  locale: Actor['locale'] = 'zh-CN',
): Promise<ResearchSubjectList> {
  const where = [eq(researchSubjects.appId, appId)];
  if (q.keyword) where.push(ilike(researchSubjects.name, `%${q.keyword.replace(/[%_\\]/g, '\\$&')}%`));
  if (q.status) where.push(eq(researchSubjects.status, q.status));
  if (q.typeCode) where.push(eq(researchSubjects.typeCode, q.typeCode));
  if (q.memberId)
    where.push(
      sql`exists (select 1 from research_subject_members m where m.subject_id = ${researchSubjects.id} and m.user_id = ${q.memberId})`,
    );
  const cond = and(...where);
  const { total, rows } = await pageOf(db, researchSubjects, cond, q, ({ limit, offset }) =>
    db
      .select({
        s: researchSubjects,
        piName: users.userName,
        piNickname: users.nickname,
        enrolled: sql<number>`(select count(*)::int from research_enrolments e where e.subject_id = ${researchSubjects.id})`,
      })
      .from(researchSubjects)
      .leftJoin(users, eq(users.userId, researchSubjects.piUserId))
      .where(cond)
      .orderBy(desc(researchSubjects.id))
      .limit(limit)
      .offset(offset),
  );
  const types = await listTypes(db, appId, locale);
  return {
    total,
    items: rows.map((r) => ({
      ...subjectView(r.s),
      typeName: types.find((t) => t.code === r.s.typeCode)?.name ?? r.s.typeCode,
      piName: r.piName ?? '',
      piNickname: r.piNickname ?? '',
      enrolled: Number(r.enrolled),
    })),
  };
}

export const subjectView = (s: SubjectRow): ResearchSubject => ({
  id: s.id,
  name: s.name,
  typeCode: s.typeCode,
  description: s.description,
  piUserId: s.piUserId,
  startDate: s.startDate,
  endDate: s.endDate,
  targetSize: s.targetSize,
  criteria: s.criteria as CohortCriteria,
  variables: s.variables as VariableDef[],
  crfFormId: s.crfFormId,
  centers: s.centers as string[],
  status: s.status,
  allowedMoves: isTaskStatus(s.status) ? allowedMoves(s.status) : [],
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export async function subjectDetail(db: Tx, actor: Actor, id: number): Promise<ResearchSubjectDetail> {
  const s = await subjectOf(db, actor.appId, id);
  const members = await subjectMembers(db, id);
  const history = await db
    .select()
    .from(researchStatusLog)
    .where(eq(researchStatusLog.subjectId, id))
    .orderBy(researchStatusLog.id);
  const [enrolled] = await db
    .select({ n: count() })
    .from(researchEnrolments)
    .where(eq(researchEnrolments.subjectId, id));
  const myRole = members.find((m) => m.userId === actor.userId)?.role ?? null;
  return {
    ...subjectView(s),
    members,
    myRole,
    enrolled: enrolled?.n ?? 0,
    history: history.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      userName: h.userName,
      reason: h.reason,
      at: h.at.toISOString(),
    })),
  };
}

/** Recruits patients of the app: all the criteria match, or the given ids (each must be the app's). */
export async function recruit(
  db: Db,
  actor: Actor,
  id: number,
  input: { mode: 'criteria' | 'patients'; patientIds: number[] },
): Promise<ResearchRecruited> {
  const s = await subjectOf(db, actor.appId, id);
  await assertMember(db, s, actor, ['pi', 'coordinator', 'investigator']);
  assertStatus(s, 'recruit', actor.locale);
  let ids: number[];
  if (input.mode === 'criteria') {
    ids = await matchPatients(db, actor.appId, cohortCriteriaSchema.parse(s.criteria));
  } else {
    if (!input.patientIds.length)
      throw invalid('patientIds', '至少指定一名患者', 'name at least one patient');
    const found = await db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.appId, actor.appId), inArray(patients.id, input.patientIds)));
    const known = new Set(found.map((f) => f.id));
    const i = input.patientIds.findIndex((p) => !known.has(p));
    // Another app's patient answers like a missing one.
    if (i >= 0) throw invalid(`patientIds.${i}`, '没有这名患者', 'no such patient');
    ids = [...known];
  }
  return db.transaction(async (tx) => {
    let added = 0;
    if (ids.length) {
      const rows = await tx
        .insert(researchEnrolments)
        .values(
          ids.map((patientId) => ({
            appId: actor.appId,
            subjectId: id,
            patientId,
            enrolledBy: actor.userId,
          })),
        )
        .onConflictDoNothing()
        .returning({ patientId: researchEnrolments.patientId });
      added = rows.length;
    }
    await audit(tx, actor, {
      action: 'recruit',
      entity: 'research_subject',
      entityId: id,
      after: { mode: input.mode, matched: ids.length, added },
    });
    return { matched: ids.length, added };
  });
}

/** Subject ids of an app, for the authorization matrix. */
export const ownedSubjectIds = ownedIds(researchSubjects, { limit: 3 });
