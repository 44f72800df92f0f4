import {
  SCI_STUDY_NO,
  type SciTask,
  type SciTaskChoices,
  type SciTaskList,
  type sciTaskCreate,
  type sciTaskPatch,
  type Variable,
} from '@crdp/core';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import {
  diseaseLibraries,
  researchSubjects,
  sciSnapshots,
  sciTransformTasks,
  variableGroupMembers,
  variableGroups,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { listVariables } from '../variables/variables.js';

/** Transform tasks (转换任务): a research subject, a cohort and variables of the variable library. */

type Row = typeof sciTransformTasks.$inferSelect;
type Create = z.output<typeof sciTaskCreate>;

export const taskRow = appRowOf(sciTransformTasks, 'sci_transform_task');
export const ownedTaskIds = ownedIds(sciTransformTasks);

const idsOf = (v: unknown) => (Array.isArray(v) ? v.map(Number) : []);

/** The variables a task takes now, in order: its group's, or its own list. */
export async function taskVariables(
  db: Tx,
  appId: number,
  t: { variableGroupId: number | null; variableIds: unknown },
) {
  let ids = idsOf(t.variableIds);
  if (t.variableGroupId !== null) {
    const members = await db
      .select({ id: variableGroupMembers.variableId })
      .from(variableGroupMembers)
      .where(and(eq(variableGroupMembers.groupId, t.variableGroupId), eq(variableGroupMembers.appId, appId)))
      .orderBy(asc(variableGroupMembers.position));
    ids = members.map((m) => m.id);
  }
  // The library's own view of each variable (derivation parsed, rule text): no second reader.
  const all = new Map((await listVariables(db, appId, { q: '' })).items.map((v) => [v.id, v]));
  return ids.map((id) => all.get(id)).filter((v): v is Variable => !!v);
}

async function views(db: Tx, appId: number, rows: Row[]): Promise<SciTask[]> {
  if (!rows.length) return [];
  const subjects = new Map(
    (
      await db
        .select({ id: researchSubjects.id, name: researchSubjects.name })
        .from(researchSubjects)
        .where(eq(researchSubjects.appId, appId))
    ).map((s) => [s.id, s.name]),
  );
  const libraries = new Map(
    (
      await db
        .select({ id: diseaseLibraries.id, name: diseaseLibraries.name })
        .from(diseaseLibraries)
        .where(eq(diseaseLibraries.appId, appId))
    ).map((s) => [s.id, s.name]),
  );
  const groups = new Map(
    (
      await db
        .select({ id: variableGroups.id, name: variableGroups.name })
        .from(variableGroups)
        .where(eq(variableGroups.appId, appId))
    ).map((s) => [s.id, s.name]),
  );
  const latest = await db
    .selectDistinctOn([sciSnapshots.taskId], {
      taskId: sciSnapshots.taskId,
      id: sciSnapshots.id,
      version: sciSnapshots.version,
      status: sciSnapshots.status,
      rowCount: sciSnapshots.rowCount,
      builtAt: sciSnapshots.builtAt,
    })
    .from(sciSnapshots)
    .where(
      and(
        eq(sciSnapshots.appId, appId),
        inArray(
          sciSnapshots.taskId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(sciSnapshots.taskId, desc(sciSnapshots.version));
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.id, (await taskVariables(db, appId, r)).length);
  return rows.map((r) => {
    const l = latest.find((x) => x.taskId === r.id);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      subjectId: r.subjectId,
      subjectName: subjects.get(r.subjectId) ?? '',
      cohort: r.cohort as SciTask['cohort'],
      libraryId: r.libraryId,
      libraryName: r.libraryId === null ? null : (libraries.get(r.libraryId) ?? null),
      variableGroupId: r.variableGroupId,
      variableGroupName: r.variableGroupId === null ? null : (groups.get(r.variableGroupId) ?? null),
      variableIds: idsOf(r.variableIds),
      variableCount: counts.get(r.id) ?? 0,
      latest: l
        ? {
            id: l.id,
            version: l.version,
            status: l.status as 'building' | 'ready' | 'failed',
            rowCount: l.rowCount,
            builtAt: l.builtAt?.toISOString() ?? null,
          }
        : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function listTasks(db: Tx, appId: number): Promise<SciTaskList> {
  const rows = await appRows(db, sciTransformTasks, appId, desc(sciTransformTasks.id));
  return { items: await views(db, appId, rows) };
}

/** What a task names belongs to the app, its name is free and it takes at least one variable. */
async function check(tx: Tx, appId: number, t: Create, id: number | null) {
  if (await nameTaken(tx, sciTransformTasks, appId, t.name, id))
    throw invalidField('body.name', `转换任务 ${t.name} 已存在`, `transform task ${t.name} exists`);
  const [subject] = await tx
    .select({ id: researchSubjects.id })
    .from(researchSubjects)
    .where(and(eq(researchSubjects.appId, appId), eq(researchSubjects.id, t.subjectId)));
  if (!subject)
    throw invalidField(
      'body.subjectId',
      `没有编号为 ${t.subjectId} 的科研课题`,
      `no research subject ${t.subjectId}`,
    );
  if (t.cohort === 'library') {
    if (t.libraryId === null)
      throw invalidField('body.libraryId', '请选择专病库', 'choose a disease library');
    const [lib] = await tx
      .select({ id: diseaseLibraries.id })
      .from(diseaseLibraries)
      .where(
        and(
          eq(diseaseLibraries.appId, appId),
          eq(diseaseLibraries.id, t.libraryId),
          isNull(diseaseLibraries.deletedAt),
        ),
      );
    if (!lib)
      throw invalidField(
        'body.libraryId',
        `没有编号为 ${t.libraryId} 的专病库`,
        `no disease library ${t.libraryId}`,
      );
  } else if (t.libraryId !== null)
    throw invalidField(
      'body.libraryId',
      '队列为课题入组患者时不选专病库',
      'a cohort of the subject’s recruited patients names no disease library',
    );
  if (t.variableGroupId !== null) {
    const [g] = await tx
      .select({ id: variableGroups.id })
      .from(variableGroups)
      .where(and(eq(variableGroups.appId, appId), eq(variableGroups.id, t.variableGroupId)));
    if (!g)
      throw invalidField(
        'body.variableGroupId',
        `没有编号为 ${t.variableGroupId} 的变量组`,
        `no variable group ${t.variableGroupId}`,
      );
  } else {
    const seen = new Set<number>();
    const found = new Set((await taskVariables(tx, appId, t)).map((v) => v.id));
    t.variableIds.forEach((v, i) => {
      if (seen.has(v))
        throw invalidField(`body.variableIds.${i}`, `变量 ${v} 重复列出`, `variable ${v} is listed twice`);
      seen.add(v);
      if (!found.has(v))
        throw invalidField(`body.variableIds.${i}`, `没有编号为 ${v} 的变量`, `no variable ${v}`);
    });
  }
  const vars = await taskVariables(tx, appId, t);
  if (!vars.length)
    throw invalidField(
      t.variableGroupId !== null ? 'body.variableGroupId' : 'body.variableIds',
      '请至少选择一个变量',
      'choose at least one variable',
    );
  if (vars.some((v) => v.code.toLowerCase() === SCI_STUDY_NO))
    throw invalidField(
      'body.variableIds',
      `变量名 ${SCI_STUDY_NO} 留作研究编号`,
      `the code ${SCI_STUDY_NO} is kept for the study number`,
    );
}

const stored = (t: Create) => ({
  name: t.name,
  description: t.description,
  subjectId: t.subjectId,
  cohort: t.cohort,
  libraryId: t.cohort === 'library' ? t.libraryId : null,
  variableGroupId: t.variableGroupId,
  variableIds: t.variableGroupId !== null ? [] : t.variableIds,
});

export async function addTask(ctx: SignedIn, input: Create): Promise<SciTask> {
  return ctx.db.transaction(async (tx) => {
    await check(tx, ctx.appId, input, null);
    const [row] = await tx
      .insert(sciTransformTasks)
      .values({ appId: ctx.appId, ...stored(input), createdBy: ctx.userId })
      .returning();
    const [after] = await views(tx, ctx.appId, [row!]);
    await audit(tx, ctx, { action: 'create', entity: 'sci_transform_task', entityId: row!.id, after });
    return after!;
  });
}

export async function editTask(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof sciTaskPatch>,
): Promise<SciTask> {
  return ctx.db.transaction(async (tx) => {
    const row = await taskRow(tx, ctx.appId, id);
    const [before] = await views(tx, ctx.appId, [row]);
    const next: Create = {
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      subjectId: input.subjectId ?? row.subjectId,
      cohort: input.cohort ?? (row.cohort as Create['cohort']),
      libraryId: input.libraryId !== undefined ? input.libraryId : row.libraryId,
      variableGroupId: input.variableGroupId !== undefined ? input.variableGroupId : row.variableGroupId,
      variableIds: input.variableIds ?? idsOf(row.variableIds),
    };
    if (next.cohort === 'subject' && input.libraryId === undefined) next.libraryId = null;
    await check(tx, ctx.appId, next, id);
    const saved = await updateAppRow(tx, sciTransformTasks, ctx.appId, id, {
      ...stored(next),
      updatedAt: sql`now()`,
    });
    const [after] = await views(tx, ctx.appId, [saved!]);
    await audit(tx, ctx, { action: 'update', entity: 'sci_transform_task', entityId: id, before, after });
    return after!;
  });
}

/** Deletes a task with its snapshots (a snapshot handed to the analyses stays there as a dataset). */
export async function deleteTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await views(tx, ctx.appId, [await taskRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, sciTransformTasks, ctx.appId, id);
    await audit(tx, ctx, { action: 'delete', entity: 'sci_transform_task', entityId: id, before });
    return true as const;
  });
}

/** What a task may name, for the task form (one call, under the task screen's own function). */
export async function taskChoices(db: Tx, appId: number): Promise<SciTaskChoices> {
  const subjects = await db
    .select({ id: researchSubjects.id, name: researchSubjects.name, status: researchSubjects.status })
    .from(researchSubjects)
    .where(eq(researchSubjects.appId, appId))
    .orderBy(desc(researchSubjects.id));
  const libraries = await db
    .select({ id: diseaseLibraries.id, name: diseaseLibraries.name })
    .from(diseaseLibraries)
    .where(and(eq(diseaseLibraries.appId, appId), isNull(diseaseLibraries.deletedAt)))
    .orderBy(asc(diseaseLibraries.name));
  const groups = await db
    .select({
      id: variableGroups.id,
      name: variableGroups.name,
      variables: sql<number>`(select count(*)::int from variable_group_members m where m.group_id = ${variableGroups.id})`,
    })
    .from(variableGroups)
    .where(eq(variableGroups.appId, appId))
    .orderBy(asc(variableGroups.name));
  const variables = (await listVariables(db, appId, { q: '' })).items.map((v) => ({
    id: v.id,
    code: v.code,
    labelZh: v.labelZh,
    labelEn: v.labelEn,
    type: v.type,
  }));
  return {
    subjects,
    libraries,
    groups: groups.map((g) => ({ ...g, variables: Number(g.variables) })),
    variables,
  };
}
