import type {
  CohortCriteria,
  LibraryInput,
  LibraryPatch,
  libraryDetailView,
  libraryPage,
  librarySaved,
} from '@crdp/core';
import { parseTemplate, TemplateError } from '@crdp/core';
import { answerItems, type Form } from '@crdp/crf';
import { and, count, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf } from '../db/paging.js';
import {
  crfForms,
  crfFormVersions,
  diseaseLibraries,
  diseaseLibraryPatients,
  diseaseLibraryTemplates,
  diseases,
} from '../db/schema/index.js';
import { type RequestContext, type SignedIn, signedIn } from '../http/context.js';
import { AppError, invalidField, notFound } from '../http/errors.js';
import { checkRuleT0Events } from '../t0/refs.js';

/** Who acts on disease libraries: the session's user in the session's app (http/context.ts). */
export type Actor = SignedIn;
/** The signed-in person of the request; a free-access link (no user) may not act on libraries (403). */
export function actorOf(ctx: RequestContext): Actor {
  if (ctx.auth && ctx.auth.userId === null) throw new AppError(403, 'auth.scope');
  return signedIn(ctx);
}

/** Bad input: 400 naming the field, worded in Chinese and English; nothing changed. */
export const invalid = invalidField;

export type LibraryRow = typeof diseaseLibraries.$inferSelect;
/** A library as answered (dates still `Date`s: the contract writes them out). */
export type LibraryView = z.input<typeof librarySaved>;
type Enums = Pick<LibraryView, 'filingRule' | 'status'>;

/** The stored row as the contract reads it: its JSON columns were checked before they were written. */
export const libraryView = (row: LibraryRow): LibraryView => ({
  ...row,
  criteria: row.criteria as CohortCriteria,
  sourceRules: row.sourceRules as Record<string, string>,
  searchFields: row.searchFields as string[],
  filingRule: row.filingRule as Enums['filingRule'],
  status: row.status as Enums['status'],
});

/**
 * A library of the app, or 404: another app's ids and deleted libraries answer exactly like
 * missing ones, so a deleted library cannot be pushed, filled, searched or exported.
 */
export async function libraryOf(db: Tx, appId: number, id: number): Promise<LibraryRow> {
  const [row] = await db
    .select()
    .from(diseaseLibraries)
    .where(
      and(eq(diseaseLibraries.id, id), eq(diseaseLibraries.appId, appId), isNull(diseaseLibraries.deletedAt)),
    );
  if (!row) throw notFound('disease_library');
  return row;
}

/** The latest published version of a form of the app: the version new records are made on. */
export async function publishedForm(db: Tx, appId: number, formId: number, field = 'body.crfFormId') {
  const [form] = await db
    .select()
    .from(crfForms)
    .where(and(eq(crfForms.id, formId), eq(crfForms.appId, appId)));
  if (!form) throw invalid(field, '本应用没有这个 ID 的表单', 'no form of this app has this id');
  if (form.latestVersion < 1)
    throw invalid(field, '该表单还没有发布的版本', 'the form has no published version yet');
  const [version] = await db
    .select()
    .from(crfFormVersions)
    .where(and(eq(crfFormVersions.formId, formId), eq(crfFormVersions.version, form.latestVersion)));
  return { form, version: version!, definition: version!.definition as Form };
}

/** Every rule must parse and name an item of the form; search fields must be items too. */
export function checkRules(definition: Form, rules: Record<string, string>, searchFields: string[] = []) {
  const keys = new Set(answerItems(definition).map((x) => x.item.key));
  for (const [key, rule] of Object.entries(rules)) {
    if (!keys.has(key))
      throw invalid(`body.sourceRules.${key}`, '表单中没有这个键的题目', 'no item of the form has this key');
    try {
      parseTemplate(rule);
    } catch (e) {
      if (e instanceof TemplateError) throw invalid(`body.sourceRules.${key}`, e.zh, e.message);
      throw e;
    }
  }
  const bad = searchFields.find((k) => !keys.has(k));
  if (bad)
    throw invalid(
      'body.searchFields',
      `表单中没有键为 ${bad} 的题目`,
      `no item of the form has the key ${bad}`,
    );
}

async function checkDisease(db: Tx, appId: number, diseaseId: number | null | undefined) {
  if (!diseaseId) return;
  const [d] = await db
    .select({ id: diseases.diseaseId })
    .from(diseases)
    .where(and(eq(diseases.diseaseId, diseaseId), eq(diseases.appId, appId)));
  if (!d)
    throw invalid(
      'body.diseaseId',
      '病种字典中没有这个 ID 的病种',
      'no disease of the dictionary has this id',
    );
}

async function checkName(db: Tx, appId: number, name: string, exceptId?: number) {
  const [same] = await db
    .select({ id: diseaseLibraries.id })
    .from(diseaseLibraries)
    .where(
      and(
        eq(diseaseLibraries.appId, appId),
        eq(diseaseLibraries.name, name),
        isNull(diseaseLibraries.deletedAt),
      ),
    );
  if (same && same.id !== exceptId)
    throw invalid('body.name', '已有同名的专病库', 'a library of this name exists');
}

const nextPush = (hours: number) => (hours > 0 ? new Date(Date.now() + hours * 3_600_000) : null);

export async function createLibrary(actor: Actor, input: LibraryInput): Promise<LibraryView> {
  const { db } = actor;
  let formId = input.crfFormId;
  let rules = input.sourceRules;
  if (input.templateId) {
    const [t] = await db
      .select()
      .from(diseaseLibraryTemplates)
      .where(
        and(eq(diseaseLibraryTemplates.id, input.templateId), eq(diseaseLibraryTemplates.appId, actor.appId)),
      );
    if (!t)
      throw invalid(
        'body.templateId',
        '本应用没有这个 ID 的通用模板',
        'no common template of this app has this id',
      );
    formId ??= t.crfFormId;
    rules = { ...(t.sourceRules as Record<string, string>), ...rules };
  }
  if (!formId)
    throw invalid('body.crfFormId', '请选择 CRF 表单或通用模板', 'choose a CRF or a common template');
  const { definition } = await publishedForm(db, actor.appId, formId);
  checkRules(definition, rules, input.searchFields);
  await checkRuleT0Events(db, actor.appId, rules, 'body.sourceRules');
  await checkDisease(db, actor.appId, input.diseaseId);
  await checkName(db, actor.appId, input.name);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(diseaseLibraries)
      .values({
        appId: actor.appId,
        name: input.name,
        description: input.description,
        diseaseId: input.diseaseId ?? null,
        crfFormId: formId,
        criteria: input.criteria,
        sourceRules: rules,
        searchFields: input.searchFields,
        filingRule: input.filingRule,
        pushEveryHours: input.pushEveryHours,
        nextPushAt: nextPush(input.pushEveryHours),
        createdBy: actor.userId,
      })
      .returning();
    await audit(tx, actor, { action: 'create', entity: 'disease_library', entityId: row!.id, after: row });
    return libraryView(row!);
  });
}

export async function updateLibrary(actor: Actor, id: number, patch: LibraryPatch): Promise<LibraryView> {
  const { db } = actor;
  const before = await libraryOf(db, actor.appId, id);
  if (patch.sourceRules || patch.searchFields) {
    const { definition } = await publishedForm(db, actor.appId, before.crfFormId, 'body.sourceRules');
    checkRules(
      definition,
      patch.sourceRules ?? (before.sourceRules as Record<string, string>),
      patch.searchFields ?? (before.searchFields as string[]),
    );
    if (patch.sourceRules) await checkRuleT0Events(db, actor.appId, patch.sourceRules, 'body.sourceRules');
  }
  await checkDisease(db, actor.appId, patch.diseaseId);
  if (patch.name) await checkName(db, actor.appId, patch.name, id);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(diseaseLibraries)
      .set({
        ...patch,
        ...(patch.pushEveryHours !== undefined ? { nextPushAt: nextPush(patch.pushEveryHours) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(diseaseLibraries.id, id))
      .returning();
    await audit(tx, actor, { action: 'update', entity: 'disease_library', entityId: id, before, after });
    return libraryView(after!);
  });
}

/**
 * Soft delete, like CRF records: the library leaves lists and answers 404 from now on (no
 * scheduled push either), while its filings, CRF records and fill log stay in the database.
 */
export async function deleteLibrary(actor: Actor, id: number) {
  const { db } = actor;
  const before = await libraryOf(db, actor.appId, id);
  await db.transaction(async (tx) => {
    const [after] = await tx
      .update(diseaseLibraries)
      .set({ deletedAt: new Date(), deletedBy: actor.userId, nextPushAt: null, updatedAt: new Date() })
      .where(and(eq(diseaseLibraries.id, id), isNull(diseaseLibraries.deletedAt)))
      .returning();
    if (!after) throw notFound('disease_library');
    await audit(tx, actor, { action: 'delete', entity: 'disease_library', entityId: id, before, after });
  });
}

export async function listLibraries(
  db: Tx,
  appId: number,
  q: { page: number; size: number; keyword?: string | undefined },
): Promise<z.input<typeof libraryPage>> {
  const where = and(
    eq(diseaseLibraries.appId, appId),
    isNull(diseaseLibraries.deletedAt),
    q.keyword ? ilike(diseaseLibraries.name, `%${q.keyword.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
  );
  const { total, rows } = await pageOf(db, diseaseLibraries, where, q, ({ limit, offset }) =>
    db
      .select({
        id: diseaseLibraries.id,
        name: diseaseLibraries.name,
        description: diseaseLibraries.description,
        diseaseId: diseaseLibraries.diseaseId,
        diseaseName: diseases.name,
        crfFormId: diseaseLibraries.crfFormId,
        crfFormName: crfForms.name,
        filingRule: diseaseLibraries.filingRule,
        status: diseaseLibraries.status,
        pushEveryHours: diseaseLibraries.pushEveryHours,
        lastPushAt: diseaseLibraries.lastPushAt,
        lastFillAt: diseaseLibraries.lastFillAt,
        createdAt: diseaseLibraries.createdAt,
        patients: sql<number>`(select count(*)::int from disease_library_patients lp where lp.library_id = ${diseaseLibraries.id})`,
      })
      .from(diseaseLibraries)
      .leftJoin(diseases, eq(diseases.diseaseId, diseaseLibraries.diseaseId))
      .leftJoin(crfForms, eq(crfForms.id, diseaseLibraries.crfFormId))
      .where(where)
      .orderBy(desc(diseaseLibraries.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    total,
    items: rows.map((r) => ({
      ...r,
      filingRule: r.filingRule as Enums['filingRule'],
      status: r.status as Enums['status'],
      patients: Number(r.patients),
    })),
  };
}

/** A library with its form definition (the latest published version) and patient count. */
export async function libraryDetail(
  db: Tx,
  appId: number,
  id: number,
): Promise<z.input<typeof libraryDetailView>> {
  const lib = await libraryOf(db, appId, id);
  const { form, definition } = await publishedForm(db, appId, lib.crfFormId);
  const [n] = await db
    .select({ n: count() })
    .from(diseaseLibraryPatients)
    .where(eq(diseaseLibraryPatients.libraryId, id));
  const items = answerItems(definition).map(({ item }) => ({
    key: item.key,
    title: item.title ?? item.key,
    type: item.type,
  }));
  return { ...libraryView(lib), crfFormName: form.name, definition, items, patients: n?.n ?? 0 };
}

export async function ownedLibraryIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: diseaseLibraries.id })
    .from(diseaseLibraries)
    .where(and(eq(diseaseLibraries.appId, appId), isNull(diseaseLibraries.deletedAt)));
  return rows.map((r) => ({ id: r.id }));
}
