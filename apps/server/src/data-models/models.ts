import type {
  CodingKind,
  DataModel,
  DataModelSummary,
  DataModelTable,
  DataModelVariableType,
  dataModelCreate,
  dataModelPatch,
  dataModelQuery,
  dataModelTableCreate,
  dataModelVariableInput,
  dataModelVariablePatch,
} from '@crdp/core';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import {
  dataModels,
  dataModelTables,
  dataModelVariables,
  diseases,
  researchSubjects,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField, notFound } from '../http/errors.js';
import { codelistName, controlledTerminology, standardModel } from './standards.js';

/*
 * The app's data models: hospital models (模型维护) and disease model templates (专病模型模板).
 * A model is one version; a new version copies the latest into version + 1, so exports and
 * studies that used an older version keep reading it unchanged.
 */

type Row = typeof dataModels.$inferSelect;

export const dataModelRow = appRowOf(dataModels, 'data_model');
export const ownedDataModelIds = ownedIds(dataModels);
const modelTrail = auditTrail('data_model', 'dataModel');
const tableTrail = auditTrail('data_model_table', 'dataModel.table');
const variableTrail = auditTrail('data_model_variable', 'dataModel.variable');

/** The app's models with their counts and the names of what they are linked to. */
async function summaries(db: Tx, appId: number, where: ReturnType<typeof sql>): Promise<DataModelSummary[]> {
  const rows = rowsOf<{
    id: number;
    code: string;
    name: string;
    kind: 'hospital' | 'template';
    version: number;
    latest: boolean;
    standard: string;
    standard_version: string;
    based_on: number | null;
    disease_id: number | null;
    disease_name: string | null;
    library_id: number | null;
    library_name: string | null;
    subject_id: number | null;
    subject_name: string | null;
    description: string;
    tables: number;
    variables: number;
    created_at: string;
    updated_at: string;
  }>(
    await db.execute(sql`
      select m.*, d.name as disease_name, l.name as library_name, s.name as subject_name,
        m.version = (select max(x.version) from data_models x where x.app_id = m.app_id and x.code = m.code) as latest,
        (select count(*)::int from data_model_tables t where t.model_id = m.id) as tables,
        (select count(*)::int from data_model_variables v where v.model_id = m.id) as variables
      from data_models m
      left join diseases d on d.disease_id = m.disease_id
      left join disease_libraries l on l.id = m.library_id and l.deleted_at is null
      left join research_subjects s on s.id = m.subject_id
      where m.app_id = ${appId} and ${where}
      order by m.kind, m.code, m.version desc`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    code: r.code,
    name: r.name,
    kind: r.kind,
    version: Number(r.version),
    latest: !!r.latest,
    standard: r.standard,
    standardVersion: r.standard_version,
    basedOn: r.based_on === null ? null : Number(r.based_on),
    diseaseId: r.disease_id === null ? null : Number(r.disease_id),
    diseaseName: r.disease_name ?? '',
    libraryId: r.library_id === null ? null : Number(r.library_id),
    libraryName: r.library_name ?? '',
    subjectId: r.subject_id === null ? null : Number(r.subject_id),
    subjectName: r.subject_name ?? '',
    description: r.description,
    tables: Number(r.tables),
    variables: Number(r.variables),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

export async function listDataModels(db: Db, appId: number, q: z.output<typeof dataModelQuery>) {
  const conds = [sql`true`];
  if (q.kind) conds.push(sql`m.kind = ${q.kind}`);
  if (q.q) {
    const like = `%${escapeLike(q.q)}%`;
    conds.push(sql`(m.code ilike ${like} or m.name ilike ${like})`);
  }
  return { items: await summaries(db, appId, sql.join(conds, sql` and `)) };
}

export async function modelTables(db: Tx, modelId: number): Promise<DataModelTable[]> {
  const tables = await db
    .select()
    .from(dataModelTables)
    .where(eq(dataModelTables.modelId, modelId))
    .orderBy(asc(dataModelTables.position));
  const vars = await db
    .select()
    .from(dataModelVariables)
    .where(eq(dataModelVariables.modelId, modelId))
    .orderBy(asc(dataModelVariables.position));
  return tables.map((t) => ({
    id: t.id,
    name: t.name,
    label: t.label,
    tableClass: t.tableClass,
    structure: t.structure,
    variables: vars
      .filter((v) => v.tableId === t.id)
      .map((v) => ({
        id: v.id,
        name: v.name,
        label: v.label,
        type: v.type as DataModelVariableType,
        role: v.role,
        core: v.core,
        codelist: v.codelist,
        codelistName: codelistName(v.codelist),
        codingKind: v.codingKind as CodingKind | null,
        sdtmTarget: null,
      })),
  }));
}

export async function getDataModel(db: Tx, appId: number, id: number): Promise<DataModel> {
  await dataModelRow(db, appId, id);
  const [summary] = await summaries(db, appId, sql`m.id = ${id}`);
  return { ...summary!, tableList: await modelTables(db, id) };
}

/** Checks the links are the app's own (a disease, a library not deleted, a research subject). */
async function checkLinks(
  tx: Tx,
  appId: number,
  l: {
    diseaseId?: number | null | undefined;
    libraryId?: number | null | undefined;
    subjectId?: number | null | undefined;
  },
) {
  if (l.diseaseId) {
    const [d] = await tx
      .select({ id: diseases.diseaseId })
      .from(diseases)
      .where(and(eq(diseases.diseaseId, l.diseaseId), eq(diseases.appId, appId)));
    if (!d)
      throw invalidField('body.diseaseId', `没有编号为 ${l.diseaseId} 的病种`, `no disease ${l.diseaseId}`);
  }
  if (l.libraryId) {
    const [d] = rowsOf<{ id: number }>(
      await tx.execute(
        sql`select id from disease_libraries where id = ${l.libraryId} and app_id = ${appId} and deleted_at is null`,
      ),
    );
    if (!d)
      throw invalidField(
        'body.libraryId',
        `没有编号为 ${l.libraryId} 的专病库`,
        `no disease library ${l.libraryId}`,
      );
  }
  if (l.subjectId) {
    const [d] = await tx
      .select({ id: researchSubjects.id })
      .from(researchSubjects)
      .where(and(eq(researchSubjects.id, l.subjectId), eq(researchSubjects.appId, appId)));
    if (!d)
      throw invalidField(
        'body.subjectId',
        `没有编号为 ${l.subjectId} 的科研课题`,
        `no research subject ${l.subjectId}`,
      );
  }
}

interface TableSpec {
  name: string;
  label: string;
  tableClass: string;
  structure: string;
  variables: Array<{
    name: string;
    label: string;
    type: string;
    role: string;
    core: string;
    codelist: string;
    codingKind: string | null;
  }>;
}

async function insertTables(tx: Tx, appId: number, modelId: number, tables: TableSpec[]) {
  for (const [position, t] of tables.entries()) {
    const [row] = await tx
      .insert(dataModelTables)
      .values({
        appId,
        modelId,
        name: t.name,
        label: t.label,
        tableClass: t.tableClass,
        structure: t.structure,
        position,
      })
      .returning({ id: dataModelTables.id });
    if (t.variables.length)
      await tx.insert(dataModelVariables).values(
        t.variables.map((v, i) => ({
          appId,
          modelId,
          tableId: row!.id,
          name: v.name,
          label: v.label,
          type: v.type,
          role: v.role,
          core: v.core,
          codelist: v.codelist,
          codingKind: v.codingKind,
          position: i,
        })),
      );
  }
}

/** A new model (version 1), empty or copied from a built-in model or one of the app's. */
export async function addDataModel(ctx: SignedIn, input: z.output<typeof dataModelCreate>) {
  const created = await ctx.db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: dataModels.id })
      .from(dataModels)
      .where(and(eq(dataModels.appId, ctx.appId), eq(dataModels.code, input.code)));
    if (taken)
      throw invalidField('body.code', `模型编码 ${input.code} 已存在`, `model code ${input.code} exists`);
    await checkLinks(tx, ctx.appId, input);
    let tables: TableSpec[] = [];
    let standard = '';
    let standardVersion = '';
    let basedOn: number | null = null;
    const from = input.from;
    if (from.type === 'standard') {
      const m = standardModel(from.key);
      const unknown = from.tables.find((t) => !m.tables.some((x) => x.name === t));
      if (unknown)
        throw invalidField(
          'body.from.tables',
          `${m.standard} 中没有表 ${unknown}`,
          `${m.standard} has no table ${unknown}`,
        );
      tables = m.tables.filter((t) => !from.tables.length || from.tables.includes(t.name));
      standard = m.standard;
      standardVersion = m.version;
    } else if (from.type === 'model') {
      const src = await tx
        .select()
        .from(dataModels)
        .where(and(eq(dataModels.id, from.id), eq(dataModels.appId, ctx.appId)));
      if (!src[0])
        throw invalidField('body.from.id', `没有编号为 ${from.id} 的模型`, `no data model ${from.id}`);
      tables = await modelTables(tx, from.id);
      standard = src[0].standard;
      standardVersion = src[0].standardVersion;
      basedOn = from.id;
    }
    const [row] = await tx
      .insert(dataModels)
      .values({
        appId: ctx.appId,
        code: input.code,
        name: input.name,
        kind: input.kind,
        description: input.description,
        standard,
        standardVersion,
        basedOn,
        diseaseId: input.diseaseId,
        libraryId: input.libraryId,
        subjectId: input.subjectId,
        createdBy: ctx.userId,
      })
      .returning();
    await insertTables(tx, ctx.appId, row!.id, tables);
    const [after] = await summaries(tx, ctx.appId, sql`m.id = ${row!.id}`);
    await modelTrail.added(tx, ctx, row!.id, after);
    return row!.id;
  });
  return getDataModel(ctx.db, ctx.appId, created);
}

/** Only the latest version of a model changes; earlier ones are what exports and studies used. */
async function editable(tx: Tx, appId: number, id: number): Promise<Row> {
  const row = await dataModelRow(tx, appId, id);
  const [newer] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from data_models where app_id = ${appId} and code = ${row.code} and version > ${row.version}`,
    ),
  );
  if (Number(newer?.n ?? 0) > 0)
    throw new AppError(409, 'request.conflict', {
      detail: bilingual(
        `${row.name} 第 ${row.version} 版已有新版本，只能修改最新版本`,
        `version ${row.version} of ${row.name} has a newer version; only the latest can change`,
      ),
    });
  return row;
}

async function touch(tx: Tx, id: number) {
  await tx.update(dataModels).set({ updatedAt: new Date() }).where(eq(dataModels.id, id));
}

export async function editDataModel(ctx: SignedIn, id: number, input: z.output<typeof dataModelPatch>) {
  await ctx.db.transaction(async (tx) => {
    const row = await editable(tx, ctx.appId, id);
    await checkLinks(tx, ctx.appId, input);
    const [before] = await summaries(tx, ctx.appId, sql`m.id = ${id}`);
    await updateAppRow(tx, dataModels, ctx.appId, id, {
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      diseaseId: input.diseaseId === undefined ? row.diseaseId : input.diseaseId,
      libraryId: input.libraryId === undefined ? row.libraryId : input.libraryId,
      subjectId: input.subjectId === undefined ? row.subjectId : input.subjectId,
      updatedAt: new Date(),
    });
    const [after] = await summaries(tx, ctx.appId, sql`m.id = ${id}`);
    await modelTrail.edited(tx, ctx, id, before, after);
  });
  return getDataModel(ctx.db, ctx.appId, id);
}

/** A new version: the latest version copied into version + 1 with the same code, name and links. */
export async function newVersion(ctx: SignedIn, id: number) {
  const created = await ctx.db.transaction(async (tx) => {
    const row = await editable(tx, ctx.appId, id);
    const [next] = await tx
      .insert(dataModels)
      .values({
        appId: ctx.appId,
        code: row.code,
        name: row.name,
        kind: row.kind,
        version: row.version + 1,
        standard: row.standard,
        standardVersion: row.standardVersion,
        basedOn: row.id,
        diseaseId: row.diseaseId,
        libraryId: row.libraryId,
        subjectId: row.subjectId,
        description: row.description,
        createdBy: ctx.userId,
      })
      .returning();
    await insertTables(tx, ctx.appId, next!.id, await modelTables(tx, id));
    await audit(tx, ctx, {
      action: 'dataModel.version',
      entity: 'data_model',
      entityId: next!.id,
      after: { code: row.code, from: row.version, version: next!.version },
    });
    return next!.id;
  });
  return getDataModel(ctx.db, ctx.appId, created);
}

export async function deleteDataModel(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await summaries(
      tx,
      ctx.appId,
      sql`m.id = ${(await dataModelRow(tx, ctx.appId, id)).id}`,
    );
    await deleteAppRow(tx, dataModels, ctx.appId, id);
    await modelTrail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

/**
 * A change to a part of an editable model (a table, a variable): `change` writes it and its
 * audit row; the model's time of change moves with it. The answer is the model as it is now.
 */
async function changePart(ctx: SignedIn, id: number, change: (tx: Tx) => Promise<unknown>) {
  await ctx.db.transaction(async (tx) => {
    await editable(tx, ctx.appId, id);
    await change(tx);
    await touch(tx, id);
  });
  return getDataModel(ctx.db, ctx.appId, id);
}

/** The position after the last row of `rows` (a table and a filter), 0 for the first. */
async function nextPosition(tx: Tx, rows: SQL) {
  const [pos] = rowsOf<{ n: number }>(
    await tx.execute(sql`select coalesce(max(position) + 1, 0)::int as n from ${rows}`),
  );
  return Number(pos?.n ?? 0);
}

export async function addTable(ctx: SignedIn, id: number, input: z.output<typeof dataModelTableCreate>) {
  return changePart(ctx, id, async (tx) => {
    const [same] = await tx
      .select({ id: dataModelTables.id })
      .from(dataModelTables)
      .where(and(eq(dataModelTables.modelId, id), eq(dataModelTables.name, input.name)));
    if (same) throw invalidField('body.name', `表 ${input.name} 已存在`, `table ${input.name} exists`);
    const position = await nextPosition(tx, sql`data_model_tables where model_id = ${id}`);
    const [row] = await tx
      .insert(dataModelTables)
      .values({ appId: ctx.appId, modelId: id, ...input, position })
      .returning();
    return tableTrail.added(tx, ctx, row!.id, row);
  });
}

async function tableOf(tx: Tx, modelId: number, tableId: number) {
  const [t] = await tx
    .select()
    .from(dataModelTables)
    .where(and(eq(dataModelTables.id, tableId), eq(dataModelTables.modelId, modelId)));
  if (!t) throw notFound('data_model_table');
  return t;
}

export async function deleteTable(ctx: SignedIn, id: number, tableId: number) {
  return changePart(ctx, id, async (tx) => {
    const before = await tableOf(tx, id, tableId);
    await tx.delete(dataModelTables).where(eq(dataModelTables.id, tableId));
    return tableTrail.deleted(tx, ctx, tableId, before);
  });
}

function checkCodelist(codelist: string | undefined) {
  if (codelist && !controlledTerminology().codelists[codelist])
    throw invalidField(
      'body.codelist',
      `受控术语中没有代码表 ${codelist}`,
      `no codelist ${codelist} in the controlled terminology`,
    );
}

/** A variable's name is unique in its table. */
async function refuseTakenVariableName(tx: Tx, tableId: number, name: string) {
  const [same] = await tx
    .select({ id: dataModelVariables.id })
    .from(dataModelVariables)
    .where(and(eq(dataModelVariables.tableId, tableId), eq(dataModelVariables.name, name)));
  if (same) throw invalidField('body.name', `变量 ${name} 已存在`, `variable ${name} exists`);
}

export async function addVariable(
  ctx: SignedIn,
  id: number,
  tableId: number,
  input: z.output<typeof dataModelVariableInput>,
) {
  return changePart(ctx, id, async (tx) => {
    await tableOf(tx, id, tableId);
    checkCodelist(input.codelist);
    await refuseTakenVariableName(tx, tableId, input.name);
    const position = await nextPosition(tx, sql`data_model_variables where table_id = ${tableId}`);
    const [row] = await tx
      .insert(dataModelVariables)
      .values({ appId: ctx.appId, modelId: id, tableId, ...input, position })
      .returning();
    return variableTrail.added(tx, ctx, row!.id, row);
  });
}

async function variableOf(tx: Tx, modelId: number, variableId: number) {
  const [v] = await tx
    .select()
    .from(dataModelVariables)
    .where(and(eq(dataModelVariables.id, variableId), eq(dataModelVariables.modelId, modelId)));
  if (!v) throw notFound('data_model_variable');
  return v;
}

export async function editVariable(
  ctx: SignedIn,
  id: number,
  variableId: number,
  input: z.output<typeof dataModelVariablePatch>,
) {
  return changePart(ctx, id, async (tx) => {
    const before = await variableOf(tx, id, variableId);
    checkCodelist(input.codelist);
    if (input.name && input.name !== before.name)
      await refuseTakenVariableName(tx, before.tableId, input.name);
    const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const [after] = await tx
      .update(dataModelVariables)
      .set(set)
      .where(eq(dataModelVariables.id, variableId))
      .returning();
    return variableTrail.edited(tx, ctx, variableId, before, after);
  });
}

export async function deleteVariable(ctx: SignedIn, id: number, variableId: number) {
  return changePart(ctx, id, async (tx) => {
    const before = await variableOf(tx, id, variableId);
    await tx.delete(dataModelVariables).where(eq(dataModelVariables.id, variableId));
    return variableTrail.deleted(tx, ctx, variableId, before);
  });
}

/** Ids of one app's tables and variables, for the authorization matrix. */
export async function ownedTableIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: dataModelTables.modelId, tableId: dataModelTables.id })
    .from(dataModelTables)
    .where(eq(dataModelTables.appId, appId))
    .limit(3);
  return rows;
}
export async function ownedVariableIds(db: Db, appId: number) {
  return db
    .select({ id: dataModelVariables.modelId, variableId: dataModelVariables.id })
    .from(dataModelVariables)
    .where(eq(dataModelVariables.appId, appId))
    .limit(3);
}
