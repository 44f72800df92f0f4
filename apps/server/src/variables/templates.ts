import {
  type batchGroupBody,
  type groupTemplateApplyBody,
  label,
  type TemplateApplied,
  type templateApplyBody,
  type templateItem,
  VARIABLE_CODE_MAX,
  type VariableCreate,
  type VariableGroupTemplate,
  type VariableTemplate,
  type VariableTemplateSpec,
  variableCreate,
  type variableGroupTemplateCreate,
  type variableGroupTemplatePatch,
  type variableTemplateCreate,
  type variableTemplatePatch,
  variableTemplateSpec,
} from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { variableGroupTemplates, variables, variableTemplates } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { checkT0Events } from '../t0/refs.js';
import { insertVariableGroup } from './groups.js';
import { insertVariable } from './variables.js';

/**
 * Variable templates (变量模板) make many similar variables at once: one derivation pattern
 * applied to a list of items, one variable per item and aggregate. Group templates (变量组模板)
 * apply several templates and collect the variables in a group; batch groups (批量变量组) apply a
 * group template once per item, one group each. Variables go through the library's own checks
 * and audit (`insertVariable`); a code the app has already is reused, never made twice.
 */

type Item = z.output<typeof templateItem>;
type TemplateRow = typeof variableTemplates.$inferSelect;
type GroupTemplateRow = typeof variableGroupTemplates.$inferSelect;

export const variableTemplateRow = appRowOf(variableTemplates, 'variable_template');
export const ownedVariableTemplateIds = ownedIds(variableTemplates);
export const variableGroupTemplateRow = appRowOf(variableGroupTemplates, 'variable_group_template');
export const ownedVariableGroupTemplateIds = ownedIds(variableGroupTemplates);
const templateTrail = auditTrail('variable_template', 'variableTemplate');
const groupTemplateTrail = auditTrail('variable_group_template', 'variableGroupTemplate');

const templateView = (r: TemplateRow): VariableTemplate => ({
  id: r.id,
  name: r.name,
  description: r.description,
  spec: variableTemplateSpec.parse(r.spec),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** An item code as part of a variable code: lower case, anything but letters and digits as `_`. */
const slug = (code: string) =>
  code
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'item';

/**
 * The variables a template makes for some items (pure; the unit test reads it): code
 * `<prefix>_<item>_<aggregate>[_<N>d]`, labels in both languages from the labelling layer.
 */
export function templateVariables(spec: VariableTemplateSpec, items: Item[]): VariableCreate[] {
  const out: VariableCreate[] = [];
  for (const item of items)
    for (const aggregate of spec.aggregates) {
      const days = spec.source === 'lab' ? `_${spec.withinDays}d` : '';
      const code = `${spec.codePrefix}_${slug(item.code)}_${aggregate}${days}`.slice(0, VARIABLE_CODE_MAX);
      const window = (locale: 'zh-CN' | 'en-US') =>
        spec.source !== 'lab'
          ? ''
          : locale === 'zh-CN'
            ? `（${label('variableAnchor', spec.anchor, locale)} ${spec.withinDays} 天内）`
            : ` (within ${spec.withinDays} days ${label('variableAnchor', spec.anchor, locale).toLowerCase()})`;
      const zhName = item.labelZh || item.code;
      const enName = item.labelEn || item.labelZh || item.code;
      out.push({
        code,
        labelZh: `${zhName}${label('variableAggregate', aggregate, 'zh-CN')}${window('zh-CN')}`.slice(0, 100),
        labelEn: `${label('variableAggregate', aggregate, 'en-US')} ${enName}${window('en-US')}`.slice(
          0,
          100,
        ),
        type: 'number',
        unit: aggregate === 'count' ? '' : spec.unit,
        valueSet: [],
        description: '',
        derivation:
          spec.source === 'lab'
            ? {
                kind: 'lab',
                itemCode: item.code,
                aggregate,
                anchor: spec.anchor,
                t0EventId: spec.anchor === 't0' ? spec.t0EventId : null,
                withinDays: spec.withinDays,
              }
            : { kind: 'cleaned', name: item.code, aggregate },
      });
    }
  return out;
}

async function checkSpec(tx: Tx, appId: number, spec: VariableTemplateSpec) {
  if (spec.source === 'lab' && spec.anchor === 't0') {
    if (spec.t0EventId === null)
      throw invalidField('body.spec.t0EventId', '请选择 T0 事件', 'choose a T0 event');
    await checkT0Events(tx, appId, [spec.t0EventId], 'body.spec.t0EventId');
  }
}

async function nameFree(tx: Tx, appId: number, name: string, id: number | null) {
  if (await nameTaken(tx, variableTemplates, appId, name, id))
    throw invalidField('body.name', `变量模板 ${name} 已存在`, `variable template ${name} exists`);
}

export async function listVariableTemplates(db: Tx, appId: number) {
  const rows = await appRows(db, variableTemplates, appId, asc(variableTemplates.name));
  return { items: rows.map(templateView) };
}

export async function addVariableTemplate(ctx: SignedIn, input: z.output<typeof variableTemplateCreate>) {
  return ctx.db.transaction(async (tx) => {
    await nameFree(tx, ctx.appId, input.name, null);
    await checkSpec(tx, ctx.appId, input.spec);
    const [row] = await tx
      .insert(variableTemplates)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const after = templateView(row!);
    return templateTrail.added(tx, ctx, after.id, after);
  });
}

export async function editVariableTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof variableTemplatePatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const before = templateView(await variableTemplateRow(tx, ctx.appId, id));
    const next = {
      name: input.name ?? before.name,
      description: input.description ?? before.description,
      spec: input.spec ?? before.spec,
    };
    await nameFree(tx, ctx.appId, next.name, id);
    await checkSpec(tx, ctx.appId, next.spec);
    const row = await updateAppRow(tx, variableTemplates, ctx.appId, id, { ...next, updatedAt: new Date() });
    const after = templateView(row!);
    return templateTrail.edited(tx, ctx, id, before, after);
  });
}

export async function deleteVariableTemplate(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = templateView(await variableTemplateRow(tx, ctx.appId, id));
    const users = await tx
      .select({ name: variableGroupTemplates.name, ids: variableGroupTemplates.templateIds })
      .from(variableGroupTemplates)
      .where(eq(variableGroupTemplates.appId, ctx.appId));
    const user = users.find((g) => (g.ids as number[]).includes(id));
    if (user)
      throw invalidField(
        'id',
        `变量组模板“${user.name}”使用了该模板`,
        `the variable group template “${user.name}” uses this template`,
      );
    await deleteAppRow(tx, variableTemplates, ctx.appId, id);
    await templateTrail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

/**
 * Makes (or finds) the variables of some templates for some items in the caller's transaction,
 * in template, item, aggregate order; answers their ids and which were new.
 */
async function makeVariables(tx: Tx, ctx: SignedIn, specs: VariableTemplateSpec[], items: Item[]) {
  const wanted = specs.flatMap((s) => templateVariables(s, items));
  const codes = [...new Set(wanted.map((w) => w.code))];
  const have = codes.length
    ? await tx
        .select()
        .from(variables)
        .where(and(eq(variables.appId, ctx.appId), inArray(variables.code, codes)))
    : [];
  const byCode = new Map(have.map((r) => [r.code, r.id]));
  const applied: TemplateApplied = { created: [], existing: [], groups: [] };
  const ids: number[] = [];
  for (const w of wanted) {
    let id = byCode.get(w.code);
    if (id === undefined) {
      const made = await insertVariable(tx, ctx, variableCreate.parse(w));
      applied.created.push(made);
      id = made.id;
      byCode.set(w.code, id);
    } else if (!applied.existing.includes(w.code)) applied.existing.push(w.code);
    if (!ids.includes(id)) ids.push(id);
  }
  return { ids, applied };
}

export async function applyVariableTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof templateApplyBody>,
): Promise<TemplateApplied> {
  return ctx.db.transaction(async (tx) => {
    const t = templateView(await variableTemplateRow(tx, ctx.appId, id));
    await checkSpec(tx, ctx.appId, t.spec);
    const { applied } = await makeVariables(tx, ctx, [t.spec], input.items);
    await audit(tx, ctx, {
      action: 'variableTemplate.apply',
      entity: 'variable_template',
      entityId: id,
      after: {
        items: input.items.map((i) => i.code),
        created: applied.created.map((v) => v.code),
        existing: applied.existing,
      },
    });
    return applied;
  });
}

// ---- Group templates and batch groups ----------------------------------------------------------

async function groupTemplateViews(db: Tx, appId: number, rows: GroupTemplateRow[]) {
  const all = await db
    .select({ id: variableTemplates.id, name: variableTemplates.name })
    .from(variableTemplates)
    .where(eq(variableTemplates.appId, appId));
  const names = new Map(all.map((t) => [t.id, t.name]));
  return rows.map(
    (r): VariableGroupTemplate => ({
      id: r.id,
      name: r.name,
      description: r.description,
      templates: (r.templateIds as number[])
        .filter((t) => names.has(t))
        .map((t) => ({ id: t, name: names.get(t)! })),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }),
  );
}

export async function listVariableGroupTemplates(db: Tx, appId: number) {
  const rows = await appRows(db, variableGroupTemplates, appId, asc(variableGroupTemplates.name));
  return { items: await groupTemplateViews(db, appId, rows) };
}

async function checkGroupTemplate(
  tx: Tx,
  appId: number,
  name: string,
  templateIds: number[],
  id: number | null,
) {
  if (await nameTaken(tx, variableGroupTemplates, appId, name, id))
    throw invalidField('body.name', `变量组模板 ${name} 已存在`, `variable group template ${name} exists`);
  const found = await tx
    .select({ id: variableTemplates.id })
    .from(variableTemplates)
    .where(and(eq(variableTemplates.appId, appId), inArray(variableTemplates.id, templateIds)));
  const missing = templateIds.findIndex((t) => !found.some((f) => f.id === t));
  if (missing >= 0)
    throw invalidField(
      `body.templateIds.${missing}`,
      `没有编号为 ${templateIds[missing]} 的变量模板`,
      `no variable template ${templateIds[missing]}`,
    );
}

export async function addVariableGroupTemplate(
  ctx: SignedIn,
  input: z.output<typeof variableGroupTemplateCreate>,
) {
  return ctx.db.transaction(async (tx) => {
    await checkGroupTemplate(tx, ctx.appId, input.name, input.templateIds, null);
    const [row] = await tx
      .insert(variableGroupTemplates)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const [after] = await groupTemplateViews(tx, ctx.appId, [row!]);
    return groupTemplateTrail.added(tx, ctx, row!.id, after!);
  });
}

export async function editVariableGroupTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof variableGroupTemplatePatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const row = await variableGroupTemplateRow(tx, ctx.appId, id);
    const [before] = await groupTemplateViews(tx, ctx.appId, [row]);
    const next = {
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      templateIds: input.templateIds ?? (row.templateIds as number[]),
    };
    await checkGroupTemplate(tx, ctx.appId, next.name, next.templateIds, id);
    const saved = await updateAppRow(tx, variableGroupTemplates, ctx.appId, id, {
      ...next,
      updatedAt: new Date(),
    });
    const [after] = await groupTemplateViews(tx, ctx.appId, [saved!]);
    return groupTemplateTrail.edited(tx, ctx, id, before, after!);
  });
}

export async function deleteVariableGroupTemplate(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await groupTemplateViews(tx, ctx.appId, [
      await variableGroupTemplateRow(tx, ctx.appId, id),
    ]);
    await deleteAppRow(tx, variableGroupTemplates, ctx.appId, id);
    await groupTemplateTrail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

/** The specs of a group template's variable templates, in its order. */
async function specsOf(tx: Tx, appId: number, row: GroupTemplateRow) {
  const ids = row.templateIds as number[];
  const rows = ids.length
    ? await tx
        .select()
        .from(variableTemplates)
        .where(and(eq(variableTemplates.appId, appId), inArray(variableTemplates.id, ids)))
    : [];
  const specs = ids.flatMap((i) => rows.filter((r) => r.id === i).map((r) => templateView(r).spec));
  for (const s of specs) await checkSpec(tx, appId, s);
  return specs;
}

/** A group template applied once: every item's variables in one new group. */
export async function applyVariableGroupTemplate(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof groupTemplateApplyBody>,
): Promise<TemplateApplied> {
  return ctx.db.transaction(async (tx) => {
    const row = await variableGroupTemplateRow(tx, ctx.appId, id);
    const { ids, applied } = await makeVariables(tx, ctx, await specsOf(tx, ctx.appId, row), input.items);
    applied.groups.push(
      await insertVariableGroup(tx, ctx, { name: input.groupName, description: row.name, variableIds: ids }),
    );
    await audit(tx, ctx, {
      action: 'variableGroupTemplate.apply',
      entity: 'variable_group_template',
      entityId: id,
      after: { items: input.items.map((i) => i.code), groups: [input.groupName] },
    });
    return applied;
  });
}

/** Batch groups: a group template applied per item, one group named `<prefix><item label>` each. */
export async function batchVariableGroups(
  ctx: SignedIn,
  input: z.output<typeof batchGroupBody>,
): Promise<TemplateApplied> {
  return ctx.db.transaction(async (tx) => {
    const row = await variableGroupTemplateRow(tx, ctx.appId, input.groupTemplateId).catch(() => {
      throw invalidField(
        'body.groupTemplateId',
        `没有编号为 ${input.groupTemplateId} 的变量组模板`,
        `no variable group template ${input.groupTemplateId}`,
      );
    });
    const specs = await specsOf(tx, ctx.appId, row);
    const out: TemplateApplied = { created: [], existing: [], groups: [] };
    for (const item of input.items) {
      const { ids, applied } = await makeVariables(tx, ctx, specs, [item]);
      out.created.push(...applied.created);
      out.existing.push(...applied.existing.filter((c) => !out.existing.includes(c)));
      const name = `${input.namePrefix}${item.labelZh || item.code}`.slice(0, 60);
      out.groups.push(
        await insertVariableGroup(tx, ctx, { name, description: row.name, variableIds: ids }).catch((e) => {
          // The group name is made from the item: name the item that clashed.
          if ((e as { field?: string }).field === 'body.name')
            throw invalidField(
              `body.items.${input.items.indexOf(item)}`,
              `变量组 ${name} 已存在`,
              `variable group ${name} exists`,
            );
          throw e;
        }),
      );
    }
    await audit(tx, ctx, {
      action: 'variableGroupTemplate.apply',
      entity: 'variable_group_template',
      entityId: row.id,
      after: { items: input.items.map((i) => i.code), groups: out.groups.map((g) => g.name) },
    });
    return out;
  });
}
