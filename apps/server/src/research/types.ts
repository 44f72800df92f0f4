import type { ResearchProjectType, researchProjectTypeRecord } from '@crdp/core';
import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRows, ownedKeys } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { researchProjectTypes, researchSubjects } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';
import { invalid } from './subjects.js';

/**
 * project-type: the built-in design types every app has, plus the app's own (editable). A
 * built-in cannot be changed; an own type in use by a subject cannot be deleted.
 */
export const BUILT_IN_TYPES = [
  { code: 'cohort', name: { 'zh-CN': '队列研究', 'en-US': 'Cohort study' } },
  { code: 'caseControl', name: { 'zh-CN': '病例对照研究', 'en-US': 'Case-control study' } },
  { code: 'crossSectional', name: { 'zh-CN': '横断面研究', 'en-US': 'Cross-sectional study' } },
  { code: 'registry', name: { 'zh-CN': '登记研究', 'en-US': 'Registry' } },
  { code: 'interventional', name: { 'zh-CN': '干预性研究', 'en-US': 'Interventional study' } },
] as const;

export type ProjectTypeView = ResearchProjectType;
/** An app's own type as stored (the answer of add and change). */
type TypeRecord = z.input<typeof researchProjectTypeRecord>;

export async function listTypes(
  db: Tx,
  appId: number,
  locale: 'zh-CN' | 'en-US' = 'zh-CN',
): Promise<ProjectTypeView[]> {
  const own = await appRows(
    db,
    researchProjectTypes,
    appId,
    researchProjectTypes.sortOrder,
    researchProjectTypes.id,
  );
  return [
    ...BUILT_IN_TYPES.map((t, i) => ({
      code: t.code,
      name: t.name[locale],
      description: '',
      builtIn: true,
      sortOrder: i,
    })),
    ...own.map((t) => ({
      code: t.code,
      name: t.name,
      description: t.description,
      builtIn: false,
      sortOrder: t.sortOrder,
    })),
  ];
}

export async function typeExists(db: Tx, appId: number, code: string) {
  if (BUILT_IN_TYPES.some((t) => t.code === code)) return true;
  const [row] = await db
    .select({ id: researchProjectTypes.id })
    .from(researchProjectTypes)
    .where(and(eq(researchProjectTypes.appId, appId), eq(researchProjectTypes.code, code)));
  return Boolean(row);
}

type TypeInput = { code: string; name: string; description: string; sortOrder: number };

export async function createType(db: Db, actor: SignedIn, input: TypeInput): Promise<TypeRecord> {
  const appId = actor.appId;
  if (await typeExists(db, appId, input.code))
    throw invalid('code', `类型 ${input.code} 已存在`, `type ${input.code} already exists`);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(researchProjectTypes)
      .values({ appId, ...input })
      .returning();
    await audit(tx, actor, {
      action: 'create',
      entity: 'research_project_type',
      entityId: row!.id,
      after: row,
    });
    return row!;
  });
}

async function ownType(db: Tx, appId: number, code: string) {
  if (BUILT_IN_TYPES.some((t) => t.code === code))
    throw invalid('code', '内置类型不能修改', 'a built-in type cannot be changed');
  const [row] = await db
    .select()
    .from(researchProjectTypes)
    .where(and(eq(researchProjectTypes.appId, appId), eq(researchProjectTypes.code, code)));
  if (!row) throw notFound('research_project_type');
  return row;
}

export async function updateType(
  db: Db,
  actor: SignedIn,
  code: string,
  input: Omit<TypeInput, 'code'>,
): Promise<TypeRecord> {
  const before = await ownType(db, actor.appId, code);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(researchProjectTypes)
      .set(input)
      .where(eq(researchProjectTypes.id, before.id))
      .returning();
    await audit(tx, actor, {
      action: 'update',
      entity: 'research_project_type',
      entityId: before.id,
      before,
      after,
    });
    return after!;
  });
}

export async function deleteType(db: Db, actor: SignedIn, code: string) {
  const appId = actor.appId;
  const before = await ownType(db, appId, code);
  const [used] = await db
    .select({ n: count() })
    .from(researchSubjects)
    .where(and(eq(researchSubjects.appId, appId), eq(researchSubjects.typeCode, code)));
  if (used?.n)
    throw new AppError(
      409,
      'request.conflict',
      {
        detail: bilingual(
          `code: 有 ${used.n} 个课题在使用该类型`,
          `code: ${used.n} subject(s) use this type`,
        ),
      },
      'code',
    );
  await db.transaction(async (tx) => {
    await tx.delete(researchProjectTypes).where(eq(researchProjectTypes.id, before.id));
    await audit(tx, actor, {
      action: 'delete',
      entity: 'research_project_type',
      entityId: before.id,
      before,
    });
  });
}

export const ownedTypeCodes = ownedKeys(
  researchProjectTypes,
  { code: researchProjectTypes.code },
  { limit: 3 },
);
