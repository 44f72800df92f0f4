import {
  type CollectionSource,
  type CollectionTarget,
  type CollectionTemplate,
  collectionSourceConfig,
  type collectionSourceCreate,
  type collectionSourcePatch,
  type collectionTemplateCreate,
  type collectionTemplatePatch,
  collectionTemplateSpec,
} from '@crdp/core';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import {
  collectionSources,
  collectionTasks,
  collectionTemplates,
  collectionTemplateVersions,
  users,
} from '../db/schema/index.js';
import { clashAs } from '../db/unique.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField, notFound } from '../http/errors.js';
import { openReader, type SourceReader } from './connectors.js';
import { FileReader } from './files.js';
import type { SecretBox } from './secrets.js';

type SourceRow = typeof collectionSources.$inferSelect;
type TemplateRow = typeof collectionTemplates.$inferSelect;

/** A source as the API shows it: never its password, only whether one is stored. */
export const sourceView = (s: SourceRow): CollectionSource => ({
  id: s.id,
  name: s.name,
  kind: s.kind as CollectionSource['kind'],
  config: collectionSourceConfig.parse(s.config),
  hasPassword: s.secret !== '',
  enabled: s.enabled,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

const nameTaken = (what: 'source' | 'template' | 'task') =>
  invalidField(
    'body.name',
    { source: '已有同名的数据源', template: '已有同名的采集模板', task: '已有同名的采集任务' }[what],
    `a ${what} of that name already exists`,
  );

export async function listSources(db: Db, appId: number) {
  const rows = await appRows(db, collectionSources, appId, asc(collectionSources.id));
  return { items: rows.map(sourceView) };
}

export const sourceOf: (db: Tx, appId: number, id: number) => Promise<SourceRow> = appRowOf(
  collectionSources,
  'collection_source',
);

export const sourcesOf = ownedIds(collectionSources);
const sourceTrail = auditTrail('collection_source', 'collection.source');

export async function addSource(
  ctx: SignedIn,
  box: SecretBox,
  input: z.output<typeof collectionSourceCreate>,
) {
  const secret = await box.seal(input.password);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(collectionSources)
      .values({
        appId: ctx.appId,
        name: input.name,
        kind: input.kind,
        config: input.config,
        secret,
        enabled: input.enabled,
        createdBy: ctx.userId,
      })
      .returning()
      .catch(clashAs(() => nameTaken('source')));
    const after = sourceView(row!);
    return sourceTrail.added(tx, ctx, after.id, after);
  });
}

export async function editSource(
  ctx: SignedIn,
  box: SecretBox,
  id: number,
  input: z.output<typeof collectionSourcePatch>,
) {
  const secret = input.password ? await box.seal(input.password) : undefined;
  return ctx.db.transaction(async (tx) => {
    const before = await sourceOf(tx, ctx.appId, id);
    const config = input.config
      ? collectionSourceConfig.parse({ ...(before.config as object), ...input.config })
      : undefined;
    const [row] = await tx
      .update(collectionSources)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(config ? { config } : {}),
        ...(secret !== undefined ? { secret } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        updatedAt: new Date(),
      })
      .where(eq(collectionSources.id, id))
      .returning()
      .catch(clashAs(() => nameTaken('source')));
    const after = sourceView(row!);
    // The audit row says that the password changed, never what it is.
    await sourceTrail.edited(tx, ctx, id, sourceView(before), {
      ...after,
      passwordChanged: secret !== undefined,
    });
    return after;
  });
}

export async function deleteSource(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await sourceOf(tx, ctx.appId, id);
    const [used] = await tx
      .select({ id: collectionTemplates.id })
      .from(collectionTemplates)
      .where(eq(collectionTemplates.sourceId, id))
      .limit(1);
    if (used)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          '该数据源仍被采集模板使用，请先删除这些模板',
          'templates still read this source; delete them first',
        ),
      });
    await tx.delete(collectionSources).where(eq(collectionSources.id, id));
    await sourceTrail.deleted(tx, ctx, id, sourceView(before));
    return true as const;
  });
}

/** Connects with the stored settings and lists the source's tables and columns. */
/** A reader on a database source with its stored settings and password. */
/** What opening a source needs: the key of its password, and the folder file sources live under. */
export interface SourceAccess {
  box: SecretBox;
  /** COLLECTION_FILES_ROOT: a CSV or FHIR source's folder is a path inside it. */
  filesRoot: string;
}

export async function readerFor(
  access: SourceAccess,
  source: typeof collectionSources.$inferSelect,
): Promise<SourceReader> {
  const config = collectionSourceConfig.parse(source.config);
  if (source.kind === 'csv' || source.kind === 'fhir')
    return FileReader.open(source.kind, access.filesRoot, config.folder);
  return openReader(source.kind as never, config, await access.box.open(source.secret));
}

export async function probeSource(db: Db, access: SourceAccess, appId: number, id: number) {
  const reader = await readerFor(access, await sourceOf(db, appId, id));
  try {
    return { ok: true as const, version: reader.version, tables: await reader.probe() };
  } finally {
    await reader.close();
  }
}

// ------------------------------------------------------------------ templates

export function templateView(t: TemplateRow, sourceName: string): CollectionTemplate {
  return {
    id: t.id,
    name: t.name,
    sourceId: t.sourceId,
    sourceName,
    target: t.target as CollectionTarget,
    spec: collectionTemplateSpec.parse(t.spec),
    version: t.version,
    enabled: t.enabled,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export async function listTemplates(db: Db, appId: number) {
  const rows = await db
    .select({ t: collectionTemplates, sourceName: collectionSources.name })
    .from(collectionTemplates)
    .innerJoin(collectionSources, eq(collectionSources.id, collectionTemplates.sourceId))
    .where(eq(collectionTemplates.appId, appId))
    .orderBy(asc(collectionTemplates.id));
  return { items: rows.map((r) => templateView(r.t, r.sourceName)) };
}

export async function templateOf(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select({ t: collectionTemplates, source: collectionSources })
    .from(collectionTemplates)
    .innerJoin(collectionSources, eq(collectionSources.id, collectionTemplates.sourceId))
    .where(and(eq(collectionTemplates.id, id), eq(collectionTemplates.appId, appId)));
  if (!row) throw notFound('collection_template');
  return row;
}

export const templatesOf = ownedIds(collectionTemplates);
const templateTrail = auditTrail('collection_template', 'collection.template');

/** Rules of a mapping the contract cannot see alone: what the target needs. */
function checkSpec(target: CollectionTarget, spec: z.output<typeof collectionTemplateSpec>, kind: string) {
  if (kind === 'hl7')
    throw invalidField(
      'body.sourceId',
      'HL7 数据源的消息按内置规则入库，不用采集模板',
      'an HL7 source is mapped by built-in rules, not by templates',
    );
  if (target !== 'patients' && !spec.patientColumn)
    throw invalidField(
      'body.spec.patientColumn',
      '请指定患者所在的列',
      'name the column that holds the patient',
    );
  const fields = spec.fields.map((f) => f.field);
  const dup = fields.find((f, i) => fields.indexOf(f) !== i);
  if (dup)
    throw invalidField('body.spec.fields', `字段 ${dup} 映射了两次`, `the field ${dup} is mapped twice`);
  spec.fields.forEach((f, i) => {
    if (!f.column && !f.transforms.some((t) => t.kind === 'constant'))
      throw invalidField(
        `body.spec.fields.${i}.column`,
        `字段 ${f.field} 需要来源列或常量`,
        `the field ${f.field} needs a source column or a constant`,
      );
  });
}

export async function addTemplate(ctx: SignedIn, input: z.output<typeof collectionTemplateCreate>) {
  return ctx.db.transaction(async (tx) => {
    const source = await sourceOf(tx, ctx.appId, input.sourceId).catch(() => {
      throw invalidField('body.sourceId', '没有这个数据源', 'no such source');
    });
    checkSpec(input.target, input.spec, source.kind);
    const [row] = await tx
      .insert(collectionTemplates)
      .values({
        appId: ctx.appId,
        name: input.name,
        sourceId: input.sourceId,
        target: input.target,
        spec: input.spec,
        enabled: input.enabled,
        createdBy: ctx.userId,
      })
      .returning()
      .catch(clashAs(() => nameTaken('template')));
    await tx
      .insert(collectionTemplateVersions)
      .values({ templateId: row!.id, version: 1, appId: ctx.appId, spec: input.spec, changedBy: ctx.userId });
    const after = templateView(row!, source.name);
    return templateTrail.added(tx, ctx, after.id, after);
  });
}

export async function editTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof collectionTemplatePatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const { t: before, source } = await templateOf(tx, ctx.appId, id);
    const specChanged =
      input.spec !== undefined && JSON.stringify(input.spec) !== JSON.stringify(before.spec);
    if (input.spec) checkSpec(before.target as CollectionTarget, input.spec, source.kind);
    const version = specChanged ? before.version + 1 : before.version;
    const [row] = await tx
      .update(collectionTemplates)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(specChanged ? { spec: input.spec, version } : {}),
        updatedAt: new Date(),
      })
      .where(eq(collectionTemplates.id, id))
      .returning()
      .catch(clashAs(() => nameTaken('template')));
    if (specChanged)
      await tx
        .insert(collectionTemplateVersions)
        .values({ templateId: id, version, appId: ctx.appId, spec: input.spec, changedBy: ctx.userId });
    const after = templateView(row!, source.name);
    return templateTrail.edited(tx, ctx, id, templateView(before, source.name), after);
  });
}

export async function deleteTemplate(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const { t: before, source } = await templateOf(tx, ctx.appId, id);
    const tasks = await tx
      .select({ name: collectionTasks.name, ids: collectionTasks.templateIds })
      .from(collectionTasks)
      .where(eq(collectionTasks.appId, ctx.appId));
    const using = tasks.filter((t) => (t.ids as number[]).includes(id)).map((t) => t.name);
    if (using.length)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `该模板仍被采集任务使用：${using.join('、')}`,
          `collection tasks still run this template: ${using.join(', ')}`,
        ),
      });
    await tx.delete(collectionTemplates).where(eq(collectionTemplates.id, id));
    await templateTrail.deleted(tx, ctx, id, templateView(before, source.name));
    return true as const;
  });
}

export async function templateVersions(db: Db, appId: number, id: number) {
  await templateOf(db, appId, id);
  const rows = await db
    .select({ v: collectionTemplateVersions, userName: users.userName })
    .from(collectionTemplateVersions)
    .leftJoin(users, eq(users.userId, collectionTemplateVersions.changedBy))
    .where(eq(collectionTemplateVersions.templateId, id))
    .orderBy(desc(collectionTemplateVersions.version));
  return {
    items: rows.map((r) => ({
      version: r.v.version,
      spec: collectionTemplateSpec.parse(r.v.spec),
      changedBy: r.userName ?? '',
      changedAt: r.v.changedAt.toISOString(),
    })),
  };
}

/** The templates of these ids of the app, with their sources, in the given order; an unknown id is a 400. */
export async function templatesFor(db: Tx, appId: number, ids: number[], field = 'body.templateIds') {
  if (!ids.length) return [];
  const rows = await db
    .select({ t: collectionTemplates, source: collectionSources })
    .from(collectionTemplates)
    .innerJoin(collectionSources, eq(collectionSources.id, collectionTemplates.sourceId))
    .where(and(eq(collectionTemplates.appId, appId), inArray(collectionTemplates.id, ids)));
  const byId = new Map(rows.map((r) => [r.t.id, r]));
  const missing = ids.find((i) => !byId.has(i));
  if (missing !== undefined)
    throw invalidField(field, `没有编号为 ${missing} 的采集模板`, `no collection template ${missing}`);
  return ids.map((i) => byId.get(i)!);
}
