import type {
  IndicatorTemplate,
  IndicatorTemplateList,
  indicatorTemplateCreate,
  indicatorTemplatePatch,
} from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { formulas, indicatorTemplateFormulas, indicatorTemplates } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';

type Row = typeof indicatorTemplates.$inferSelect;

/** Each template's formulas in order. */
async function formulasOf(db: Tx, appId: number, ids: number[]) {
  const out = new Map<number, IndicatorTemplate['formulas']>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      templateId: indicatorTemplateFormulas.templateId,
      id: formulas.id,
      name: formulas.name,
      unit: formulas.unit,
    })
    .from(indicatorTemplateFormulas)
    .innerJoin(formulas, eq(formulas.id, indicatorTemplateFormulas.formulaId))
    .where(
      and(eq(indicatorTemplateFormulas.appId, appId), inArray(indicatorTemplateFormulas.templateId, ids)),
    )
    .orderBy(asc(indicatorTemplateFormulas.position));
  for (const r of rows)
    out.set(r.templateId, [...(out.get(r.templateId) ?? []), { id: r.id, name: r.name, unit: r.unit }]);
  return out;
}

const view = (r: Row, fs: IndicatorTemplate['formulas'] = []): IndicatorTemplate => ({
  id: r.id,
  name: r.name,
  description: r.description,
  formulas: fs,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

async function viewOf(db: Tx, r: Row) {
  return view(r, (await formulasOf(db, r.appId, [r.id])).get(r.id));
}

export async function listTemplates(db: Db, appId: number): Promise<IndicatorTemplateList> {
  const rows = await appRows(db, indicatorTemplates, appId, asc(indicatorTemplates.id));
  const fs = await formulasOf(
    db,
    appId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => view(r, fs.get(r.id))) };
}

export const templateOf: (db: Tx, appId: number, id: number) => Promise<Row> = appRowOf(
  indicatorTemplates,
  'indicator_template',
);

export const templatesOf = ownedIds(indicatorTemplates);
const trail = auditTrail('indicator_template', 'indicatorTemplate');

/** Sets a template's formulas in order; an id that is not one of the app's formulas is a 400. */
async function setFormulas(tx: Tx, appId: number, templateId: number, ids: number[]) {
  if (ids.length) {
    const found = new Set(
      (
        await tx
          .select({ id: formulas.id })
          .from(formulas)
          .where(and(eq(formulas.appId, appId), inArray(formulas.id, ids)))
      ).map((r) => r.id),
    );
    const i = ids.findIndex((id) => !found.has(id));
    if (i >= 0)
      throw invalidField(`formulaIds.${i}`, `公式 ${ids[i]} 不存在`, `there is no formula ${ids[i]}`);
  }
  await tx.delete(indicatorTemplateFormulas).where(eq(indicatorTemplateFormulas.templateId, templateId));
  if (ids.length)
    await tx
      .insert(indicatorTemplateFormulas)
      .values(ids.map((formulaId, position) => ({ templateId, formulaId, appId, position })));
}

export async function addTemplate(
  ctx: SignedIn,
  input: z.output<typeof indicatorTemplateCreate>,
): Promise<IndicatorTemplate> {
  return ctx.db.transaction(async (tx) => {
    const { formulaIds, ...fields } = input;
    const [row] = await tx
      .insert(indicatorTemplates)
      .values({ appId: ctx.appId, ...fields, createdBy: ctx.userId })
      .returning();
    await setFormulas(tx, ctx.appId, row!.id, formulaIds);
    const after = await viewOf(tx, row!);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof indicatorTemplatePatch>,
): Promise<IndicatorTemplate> {
  return ctx.db.transaction(async (tx) => {
    const old = await templateOf(tx, ctx.appId, id);
    const before = await viewOf(tx, old);
    const { formulaIds, ...fields } = input;
    const [row] = await tx
      .update(indicatorTemplates)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(indicatorTemplates.id, id))
      .returning();
    if (formulaIds) await setFormulas(tx, ctx.appId, id, formulaIds);
    const after = await viewOf(tx, row!);
    return trail.edited(tx, ctx, id, before, after);
  });
}

export async function deleteTemplate(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await viewOf(tx, await templateOf(tx, ctx.appId, id));
    await tx.delete(indicatorTemplates).where(eq(indicatorTemplates.id, id));
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}
