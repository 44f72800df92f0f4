import {
  analyzeForm,
  type CrfFormStatus,
  type crfForm,
  type crfFormPage,
  type crfVersion,
  type crfVersionSummary,
  type Form,
  FormParseError,
  formSchema,
  parseForm,
} from '@crdp/crf';
import { and, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { crfForms, crfFormVersions, crfRecords } from '../db/schema/index.js';
import { AppError, notFound } from '../http/errors.js';
import { issueText } from '../http/validation-messages.js';
import { assertFormInScope, type CrfActor, type CrfScope, invalid } from './actor.js';

type FormRow = typeof crfForms.$inferSelect;
/** A form as the API answers it (the `crfForm` contract of @crdp/crf). */
export type FormView = z.input<typeof crfForm>;
export type VersionView = z.input<typeof crfVersion>;

/** A form row as the contract names it (the status column holds one of the form statuses). */
export const formView = (row: FormRow): FormView => ({ ...row, status: row.status as CrfFormStatus });

/** A new form starts with one page holding one text question, so it can be previewed at once. */
export const EMPTY_FORM: Form = {
  pages: [{ key: 'page1', title: '第一页', items: [{ key: 'q1', type: 'textQuestion', title: '问题 1' }] }],
};

/** Checks form JSON with the engine's schema; a fault becomes a 400 naming its path. */
export function checkDefinition(json: unknown, field = 'body.definition'): Form {
  try {
    return parseForm(json);
  } catch (e) {
    if (e instanceof FormParseError) {
      const f = e.faults[0];
      const at = f?.path ? `${field}.${f.path}` : field;
      // The schema's own checks carry their Chinese; zod's checks are worded by issueText.
      if (f?.messageZh) throw invalid(at, f.messageZh, f.message);
      // parseForm got this far, so a string was JSON; the same check again gives zod's issue to word in Chinese.
      const value: unknown = typeof json === 'string' ? JSON.parse(json) : json;
      const issue = formSchema.safeParse(value).error?.issues[0];
      if (!issue) throw invalid(at, '表单格式不正确', f?.message ?? 'malformed form');
      const text = issueText(issue, value);
      throw invalid(at, text['zh-CN'], text['en-US']);
    }
    throw invalid(field, '表单格式不正确', 'malformed form');
  }
}

export async function listForms(
  db: Db,
  actor: CrfScope,
  q: { page: number; size: number; keyword?: string | undefined; status?: string | undefined },
): Promise<z.input<typeof crfFormPage>> {
  const where: SQL[] = [eq(crfForms.appId, actor.appId)];
  if (q.keyword) where.push(ilike(crfForms.name, `%${q.keyword.replace(/[\\%_]/g, '\\$&')}%`));
  if (q.status) where.push(eq(crfForms.status, q.status));
  const cond = and(...where);
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: crfForms.id,
        name: crfForms.name,
        category: crfForms.category,
        status: crfForms.status,
        latestVersion: crfForms.latestVersion,
        createdAt: crfForms.createdAt,
        updatedAt: crfForms.updatedAt,
        // Qualified by hand: drizzle writes a bare "id" here, which the subquery would read as r.id.
        records: sql<number>`(select count(*)::int from ${crfRecords} r where r.form_id = "crf_forms"."id" and r.deleted_at is null)`,
      })
      .from(crfForms)
      .where(cond)
      .orderBy(desc(crfForms.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ n: sql<number>`count(*)::int` }).from(crfForms).where(cond),
  ]);
  return { items: rows.map((r) => ({ ...r, status: r.status as CrfFormStatus })), total: count?.n ?? 0 };
}

const formRow = appRowOf(crfForms, 'crf_form');

export async function loadForm(db: Tx, actor: CrfScope, formId: number) {
  assertFormInScope(actor, formId);
  return formRow(db, actor.appId, formId);
}

export async function formVersions(db: Tx, formId: number): Promise<z.input<typeof crfVersionSummary>[]> {
  return db
    .select({
      id: crfFormVersions.id,
      version: crfFormVersions.version,
      note: crfFormVersions.note,
      publishedAt: crfFormVersions.publishedAt,
    })
    .from(crfFormVersions)
    .where(eq(crfFormVersions.formId, formId))
    .orderBy(desc(crfFormVersions.version));
}

export async function loadVersion(db: Tx, actor: CrfScope, formId: number, version?: number) {
  assertFormInScope(actor, formId);
  // One round trip: the form and the wanted (or latest) version together.
  const [row] = await db
    .select({ form: crfForms, version: crfFormVersions })
    .from(crfForms)
    .innerJoin(crfFormVersions, eq(crfFormVersions.formId, crfForms.id))
    .where(
      and(
        eq(crfForms.id, formId),
        eq(crfForms.appId, actor.appId),
        version === undefined
          ? eq(crfFormVersions.version, crfForms.latestVersion)
          : eq(crfFormVersions.version, version),
      ),
    );
  if (row) return row;
  const form = await loadForm(db, actor, formId);
  if (version === undefined || form.latestVersion < 1) throw new AppError(409, 'crf.notPublished');
  throw notFound('crf_form_version');
}

// Published versions never change, so their parsed form can be kept: the engine compiles a
// form once per object, and a save then skips the compile. A cache, never the only copy. Keyed
// by id and publication time: an id alone names another version in another database (a restore
// into a new database, the test suite's databases in one process).
const versionForms = new Map<string, Form>();
export function versionForm(v: { id: number; publishedAt: Date; definition: unknown }): Form {
  const key = `${v.id}@${v.publishedAt.getTime()}`;
  let form = versionForms.get(key);
  if (!form) {
    form = v.definition as Form;
    if (versionForms.size >= 500) versionForms.delete(versionForms.keys().next().value!);
    versionForms.set(key, form);
  }
  return form;
}

export async function createForm(
  db: Db,
  actor: CrfActor,
  input: { name: string; category: string; definition?: unknown },
): Promise<FormView> {
  const definition = input.definition === undefined ? EMPTY_FORM : checkDefinition(input.definition);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(crfForms)
      .values({
        appId: actor.appId,
        name: input.name,
        category: input.category,
        draft: definition,
        createdBy: actor.userId,
      })
      .returning();
    await audit(tx, actor, {
      action: 'crf.form.create',
      entity: 'crf_form',
      entityId: row!.id,
      after: { name: input.name, category: input.category },
    });
    return formView(row!);
  });
}

export async function updateForm(
  db: Db,
  actor: CrfActor,
  formId: number,
  patch: {
    name?: string | undefined;
    category?: string | undefined;
    status?: CrfFormStatus | undefined;
  },
): Promise<FormView> {
  return db.transaction(async (tx) => {
    const before = await loadForm(tx, actor, formId);
    const set = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.category !== undefined ? { category: patch.category } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      updatedAt: new Date(),
    };
    const [row] = await tx.update(crfForms).set(set).where(eq(crfForms.id, formId)).returning();
    await audit(tx, actor, {
      action: patch.status === 'archived' ? 'crf.form.archive' : 'crf.form.update',
      entity: 'crf_form',
      entityId: formId,
      before: { name: before.name, category: before.category, status: before.status },
      after: patch,
    });
    return formView(row!);
  });
}

export async function saveDraft(db: Db, actor: CrfActor, formId: number, json: unknown) {
  const definition = checkDefinition(json);
  return db.transaction(async (tx) => {
    const before = await loadForm(tx, actor, formId);
    if (before.status === 'archived') throw new AppError(409, 'crf.archived');
    await tx
      .update(crfForms)
      .set({ draft: definition, updatedAt: new Date() })
      .where(eq(crfForms.id, formId));
    await audit(tx, actor, {
      action: 'crf.form.draft',
      entity: 'crf_form',
      entityId: formId,
      after: { items: JSON.stringify(definition).length },
    });
    return { problems: analyzeForm(definition) };
  });
}

/** Publishes the draft as the next immutable version; problems found by analyzeForm block it. */
export async function publishForm(
  db: Db,
  actor: CrfActor,
  formId: number,
  note: string,
): Promise<VersionView> {
  return db.transaction(async (tx) => {
    // Lock the form row so two publishes cannot take the same number.
    await tx.execute(
      sql`select id from crf_forms where id = ${formId} and app_id = ${actor.appId} for update`,
    );
    const form = await loadForm(tx, actor, formId);
    if (form.status === 'archived') throw new AppError(409, 'crf.archived');
    const definition = checkDefinition(form.draft, 'draft');
    const problems = analyzeForm(definition);
    if (problems.length) {
      throw new AppError(
        400,
        'crf.problems',
        { count: problems.length, first: `${problems[0]!.at}: ${problems[0]!.message}` },
        `draft.${problems[0]!.at}`,
      );
    }
    const version = form.latestVersion + 1;
    const [row] = await tx
      .insert(crfFormVersions)
      .values({ appId: actor.appId, formId, version, definition, note, publishedBy: actor.userId })
      .returning();
    await tx
      .update(crfForms)
      .set({ latestVersion: version, updatedAt: new Date() })
      .where(eq(crfForms.id, formId));
    await audit(tx, actor, {
      action: 'crf.form.publish',
      entity: 'crf_form',
      entityId: formId,
      after: { version, versionId: row!.id, note },
    });
    return row!;
  });
}

export async function copyForm(db: Db, actor: CrfActor, formId: number, name: string): Promise<FormView> {
  const source = await loadForm(db, actor, formId);
  return createForm(db, actor, { name, category: source.category, definition: source.draft });
}

/** Real ids of one app's forms, versions and records, for the authorization matrix. */
export async function ownedFormIds(db: Db, appId: number) {
  const rows = await db.select({ id: crfForms.id }).from(crfForms).where(eq(crfForms.appId, appId));
  return rows.map((r) => ({ formId: r.id }));
}
