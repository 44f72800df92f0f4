import {
  HOSPITAL_UNIT_KIND_LABELS,
  HOSPITAL_UNIT_KINDS,
  HOSPITAL_UNIT_PARENT,
  type HospitalUnit,
  type HospitalUnitKind,
  type HospitalUnitList,
  type hospitalUnitCreate,
  type hospitalUnitPatch,
} from '@crdp/core';
import { and, count, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { hospitalUnits, visits } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, invalidField, notFound } from '../http/errors.js';
import { pinyinInitials } from './pinyin.js';

type Row = typeof hospitalUnits.$inferSelect;
type UnitCreate = z.output<typeof hospitalUnitCreate>;
type UnitPatch = z.output<typeof hospitalUnitPatch>;

const trail = auditTrail('hospital_unit', 'hospitalUnit');

/** A level's words from the labelling layer, the English in lower case for the middle of a sentence. */
const kindWords = (kind: HospitalUnitKind) => ({
  zh: HOSPITAL_UNIT_KIND_LABELS[kind]['zh-CN'],
  en: HOSPITAL_UNIT_KIND_LABELS[kind]['en-US'].toLowerCase(),
});

const view = (u: Row, visitCount = 0): HospitalUnit => ({
  id: u.unitId,
  kind: u.kind as HospitalUnitKind,
  code: u.code,
  name: u.name,
  pinyin: u.pinyin,
  parentId: u.parentId,
  enabled: u.enabled,
  visits: visitCount,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

/**
 * The app's hospital structure, campuses first, then departments, then wards, each by code.
 * A department's or ward's `visits` counts the clinical visits whose department is its name or
 * its code (visits carry the department as the source system wrote it).
 */
export async function listUnits(db: Db, appId: number, keyword?: string): Promise<HospitalUnitList> {
  const k = keyword?.trim();
  const like = k ? `%${escapeLike(k)}%` : null;
  const rows = await db
    .select()
    .from(hospitalUnits)
    .where(
      and(
        eq(hospitalUnits.appId, appId),
        like
          ? or(
              ilike(hospitalUnits.name, like),
              ilike(hospitalUnits.code, like),
              ilike(hospitalUnits.pinyin, like),
            )
          : undefined,
      ),
    );
  const perDepartment = await db
    .select({ department: visits.department, n: count() })
    .from(visits)
    .where(and(eq(visits.appId, appId), ne(visits.department, '')))
    .groupBy(visits.department);
  const visitsOf = new Map(perDepartment.map((r) => [r.department, r.n]));
  const order = (u: Row) => HOSPITAL_UNIT_KINDS.indexOf(u.kind as HospitalUnitKind);
  rows.sort((a, b) => order(a) - order(b) || a.code.localeCompare(b.code));
  return {
    items: rows.map((u) =>
      view(u, u.kind === 'campus' ? 0 : (visitsOf.get(u.name) ?? 0) + (visitsOf.get(u.code) ?? 0)),
    ),
  };
}

async function unitOfApp(db: Tx, appId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(hospitalUnits)
    .where(and(eq(hospitalUnits.unitId, id), eq(hospitalUnits.appId, appId)));
  if (!row) throw notFound('hospital_unit');
  return row;
}

async function codeFree(db: Tx, appId: number, code: string, except?: number) {
  const [taken] = await db
    .select({ id: hospitalUnits.unitId, name: hospitalUnits.name })
    .from(hospitalUnits)
    .where(
      and(
        eq(hospitalUnits.appId, appId),
        sql`lower(${hospitalUnits.code}) = lower(${code})`,
        except === undefined ? undefined : ne(hospitalUnits.unitId, except),
      ),
    );
  if (taken)
    throw invalidField(
      'code',
      `编码 ${code} 已被「${taken.name}」使用`,
      `code ${code} is already used by "${taken.name}"`,
    );
}

/** A campus has no parent; a department may sit under a campus; a ward must sit under a department. */
async function checkParent(db: Tx, appId: number, kind: HospitalUnitKind, parentId: number | null) {
  const wanted = HOSPITAL_UNIT_PARENT[kind];
  const w = kindWords(kind);
  if (parentId === null) {
    if (kind === 'ward')
      throw invalidField('parentId', '病区必须属于一个科室', 'a ward must belong to a department');
    return;
  }
  if (wanted === null)
    throw invalidField('parentId', '院区不属于其他机构', 'a campus does not belong to another unit');
  const [parent] = await db
    .select({ kind: hospitalUnits.kind })
    .from(hospitalUnits)
    .where(and(eq(hospitalUnits.unitId, parentId), eq(hospitalUnits.appId, appId)));
  if (!parent)
    throw invalidField('parentId', `上级机构 ${parentId} 不存在`, `parent unit ${parentId} does not exist`);
  if (parent.kind !== wanted) {
    const p = kindWords(wanted);
    throw invalidField('parentId', `${w.zh}的上级必须是${p.zh}`, `a ${w.en}'s parent must be a ${p.en}`);
  }
}

export async function addUnit(ctx: SignedIn, input: UnitCreate): Promise<HospitalUnit> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    await codeFree(tx, appId, input.code);
    await checkParent(tx, appId, input.kind, input.parentId);
    const [row] = await tx
      .insert(hospitalUnits)
      .values({ appId, ...input, pinyin: pinyinInitials(input.name) })
      .returning();
    const after = view(row!);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editUnit(ctx: SignedIn, id: number, input: UnitPatch): Promise<HospitalUnit> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await unitOfApp(tx, appId, id);
    if (input.code !== undefined) await codeFree(tx, appId, input.code, id);
    if (input.parentId !== undefined)
      await checkParent(tx, appId, before.kind as HospitalUnitKind, input.parentId);
    const [row] = await tx
      .update(hospitalUnits)
      .set({
        ...input,
        ...(input.name !== undefined ? { pinyin: pinyinInitials(input.name) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(hospitalUnits.unitId, id))
      .returning();
    const after = view(row!);
    return trail.edited(tx, ctx, id, view(before), after);
  });
}

/** A unit with units under it stays: the wards of a department are moved or deleted first. */
export async function deleteUnit(ctx: SignedIn, id: number): Promise<true> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await unitOfApp(tx, appId, id);
    const [under] = await tx
      .select({ n: count() })
      .from(hospitalUnits)
      .where(and(eq(hospitalUnits.appId, appId), eq(hospitalUnits.parentId, id)));
    if (under && under.n > 0)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          `「${before.name}」下还有 ${under.n} 个机构，请先移走或删除它们`,
          `"${before.name}" still has ${under.n} unit(s) under it; move or delete them first`,
        ),
      });
    await tx.delete(hospitalUnits).where(eq(hospitalUnits.unitId, id));
    await trail.deleted(tx, ctx, id, view(before));
    return true as const;
  });
}

/** Real ids of one app's units (the authorization matrix's cross-app check). */
export const unitsOf = ownedIds(hospitalUnits, { id: hospitalUnits.unitId });
