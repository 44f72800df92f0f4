import type { libraryTemplate, libraryTemplateRow } from '@crdp/core';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, nameTaken } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { crfForms, diseaseLibraryTemplates } from '../db/schema/index.js';
import { checkRuleT0Events } from '../t0/refs.js';
import { type Actor, checkRules, invalid, publishedForm } from './libraries.js';

/** Common templates (commonly-template): a published CRF with its source rules, reused by new libraries. */
type Input = { name: string; description: string; crfFormId: number; sourceRules: Record<string, string> };
type TemplateRow = z.input<typeof libraryTemplateRow>;
const templateRow = (t: typeof diseaseLibraryTemplates.$inferSelect): TemplateRow => ({
  ...t,
  sourceRules: t.sourceRules as Record<string, string>,
});

const templateOf = appRowOf(diseaseLibraryTemplates, 'disease_library_template');

async function checkTemplate(db: Tx, appId: number, input: Input, exceptId?: number) {
  const { definition } = await publishedForm(db, appId, input.crfFormId);
  checkRules(definition, input.sourceRules);
  await checkRuleT0Events(db, appId, input.sourceRules, 'body.sourceRules');
  if (await nameTaken(db, diseaseLibraryTemplates, appId, input.name, exceptId))
    throw invalid('body.name', '已有同名的模板', 'a template of this name exists');
}

export async function listTemplates(db: Tx, appId: number): Promise<Array<z.input<typeof libraryTemplate>>> {
  const rows = await db
    .select({
      id: diseaseLibraryTemplates.id,
      name: diseaseLibraryTemplates.name,
      description: diseaseLibraryTemplates.description,
      crfFormId: diseaseLibraryTemplates.crfFormId,
      crfFormName: crfForms.name,
      sourceRules: diseaseLibraryTemplates.sourceRules,
      createdAt: diseaseLibraryTemplates.createdAt,
    })
    .from(diseaseLibraryTemplates)
    .leftJoin(crfForms, eq(crfForms.id, diseaseLibraryTemplates.crfFormId))
    .where(eq(diseaseLibraryTemplates.appId, appId))
    .orderBy(desc(diseaseLibraryTemplates.id));
  return rows.map((r) => ({ ...r, sourceRules: r.sourceRules as Record<string, string> }));
}

export async function createTemplate(actor: Actor, input: Input): Promise<TemplateRow> {
  const { db } = actor;
  await checkTemplate(db, actor.appId, input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(diseaseLibraryTemplates)
      .values({ appId: actor.appId, ...input, createdBy: actor.userId })
      .returning();
    await audit(tx, actor, {
      action: 'create',
      entity: 'disease_library_template',
      entityId: row!.id,
      after: row,
    });
    return templateRow(row!);
  });
}

export async function updateTemplate(actor: Actor, id: number, patch: Partial<Input>): Promise<TemplateRow> {
  const { db } = actor;
  const before = await templateOf(db, actor.appId, id);
  const merged = {
    ...before,
    ...patch,
    sourceRules: (patch.sourceRules ?? before.sourceRules) as Record<string, string>,
  };
  await checkTemplate(db, actor.appId, merged, id);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(diseaseLibraryTemplates)
      .set({
        name: merged.name,
        description: merged.description,
        crfFormId: merged.crfFormId,
        sourceRules: merged.sourceRules,
      })
      .where(eq(diseaseLibraryTemplates.id, id))
      .returning();
    await audit(tx, actor, {
      action: 'update',
      entity: 'disease_library_template',
      entityId: id,
      before,
      after,
    });
    return templateRow(after!);
  });
}

export async function deleteTemplate(actor: Actor, id: number) {
  const { db } = actor;
  const before = await templateOf(db, actor.appId, id);
  await db.transaction(async (tx) => {
    await tx.delete(diseaseLibraryTemplates).where(eq(diseaseLibraryTemplates.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'disease_library_template', entityId: id, before });
  });
}

export async function ownedTemplateIds(db: Db, appId: number) {
  const rows = await db
    .select({ templateId: diseaseLibraryTemplates.id })
    .from(diseaseLibraryTemplates)
    .where(eq(diseaseLibraryTemplates.appId, appId));
  return rows;
}
