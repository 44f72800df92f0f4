import type { AdminDisease, AdminDiseasePage } from '@crdp/core';
import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import { auditTrail } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { pageOfTable } from '../db/paging.js';
import { diseases } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, notFound } from '../http/errors.js';

const trail = auditTrail('disease', 'disease');

export interface DiseaseInput {
  name: string;
  icd10: string;
  category: string;
  enabled: boolean;
}

export interface DiseaseQuery {
  keyword?: string | undefined;
  category?: string | undefined;
  enabled?: boolean | undefined;
  page: number;
  size: number;
}

const view = (d: typeof diseases.$inferSelect): AdminDisease => ({
  id: d.diseaseId,
  name: d.name,
  icd10: d.icd10,
  category: d.category,
  enabled: d.enabled,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});

/** The app's disease dictionary, searchable by name or ICD-10 code. */
export async function listDiseases(db: Tx, appId: number, q: DiseaseQuery): Promise<AdminDiseasePage> {
  const k = q.keyword?.trim();
  const where = and(
    eq(diseases.appId, appId),
    k
      ? or(ilike(diseases.name, `%${escapeLike(k)}%`), ilike(diseases.icd10, `%${escapeLike(k)}%`))
      : undefined,
    q.category ? eq(diseases.category, q.category) : undefined,
    q.enabled === undefined ? undefined : eq(diseases.enabled, q.enabled),
  );
  const { total, rows } = await pageOfTable(
    db,
    diseases,
    where,
    [asc(diseases.icd10), asc(diseases.diseaseId)],
    q,
  );
  return { total, page: q.page, size: q.size, items: rows.map(view) };
}

async function nameFree(db: Tx, appId: number, name: string, except?: number) {
  const [taken] = await db
    .select({ id: diseases.diseaseId })
    .from(diseases)
    .where(
      and(
        eq(diseases.appId, appId),
        sql`lower(${diseases.name}) = lower(${name})`,
        except === undefined ? undefined : ne(diseases.diseaseId, except),
      ),
    );
  if (taken) throw new AppError(400, 'admin.diseaseTaken', { name }, 'body.name');
}

async function diseaseOfApp(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select()
    .from(diseases)
    .where(and(eq(diseases.diseaseId, id), eq(diseases.appId, appId)));
  if (!row) throw notFound('disease');
  return row;
}

export async function addDisease(ctx: SignedIn, input: DiseaseInput): Promise<AdminDisease> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    await nameFree(tx, appId, input.name);
    const [row] = await tx
      .insert(diseases)
      .values({ appId, ...input })
      .returning();
    return trail.added(tx, ctx, row!.diseaseId, view(row!));
  });
}

export async function editDisease(
  ctx: SignedIn,
  id: number,
  input: Partial<DiseaseInput>,
): Promise<AdminDisease> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await diseaseOfApp(tx, appId, id);
    if (input.name !== undefined) await nameFree(tx, appId, input.name, id);
    const [after] = await tx
      .update(diseases)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(diseases.diseaseId, id))
      .returning();
    return trail.edited(tx, ctx, id, view(before), view(after!));
  });
}

export async function deleteDisease(ctx: SignedIn, id: number): Promise<true> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await diseaseOfApp(tx, appId, id);
    await tx.delete(diseases).where(eq(diseases.diseaseId, id));
    await trail.deleted(tx, ctx, id, view(before));
    return true as const;
  });
}
