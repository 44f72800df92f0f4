import { parseTemplate, TemplateError } from '@crdp/core';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import {
  diseaseLibraries,
  diseaseLibraryTemplates,
  researchSubjects,
  t0Events,
  variables,
} from '../db/schema/index.js';
import { AppError, bilingual, invalidField } from '../http/errors.js';

/**
 * Where a T0 event is used as a zero point: research-subject variables (`t0EventId`), the
 * indicator rules of disease libraries and library templates (`after t0 <id>`), and the variable
 * library's variables. Each checks the events it names belong to the app, and an event in use is
 * not deleted.
 */

/** The T0 event ids an indicator template names (none when it does not parse: that is checked elsewhere). */
export function t0IdsOfRule(text: string): number[] {
  try {
    const ref = parseTemplate(text).anchor?.ref;
    return ref && typeof ref === 'object' && 't0' in ref ? [ref.t0] : [];
  } catch (e) {
    if (e instanceof TemplateError) return [];
    throw e;
  }
}

/** Refuses (400 on `field`) an id that is not one of the app's T0 events. */
export async function checkT0Events(db: Tx, appId: number, ids: number[], field: string) {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return;
  const found = await db
    .select({ id: t0Events.id })
    .from(t0Events)
    .where(and(eq(t0Events.appId, appId), inArray(t0Events.id, wanted)));
  const missing = wanted.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined)
    throw invalidField(field, `没有编号为 ${missing} 的 T0 事件`, `no T0 event ${missing}`);
}

/** Checks the T0 events of indicator rules keyed by item, naming the item at fault. */
export async function checkRuleT0Events(db: Tx, appId: number, rules: Record<string, string>, field: string) {
  for (const [key, text] of Object.entries(rules))
    await checkT0Events(db, appId, t0IdsOfRule(text), `${field}.${key}`);
}

/** The names of what uses an event as its zero point, by kind. */
export async function t0EventUsers(db: Tx, appId: number, id: number) {
  const usesRules = (rules: unknown) =>
    Object.values(rules as Record<string, string>).some((t) => t0IdsOfRule(t).includes(id));
  const libraries = await db
    .select({ name: diseaseLibraries.name, rules: diseaseLibraries.sourceRules })
    .from(diseaseLibraries)
    .where(and(eq(diseaseLibraries.appId, appId), isNull(diseaseLibraries.deletedAt)));
  const templates = await db
    .select({ name: diseaseLibraryTemplates.name, rules: diseaseLibraryTemplates.sourceRules })
    .from(diseaseLibraryTemplates)
    .where(eq(diseaseLibraryTemplates.appId, appId));
  const subjects = await db
    .select({ name: researchSubjects.name, variables: researchSubjects.variables })
    .from(researchSubjects)
    .where(eq(researchSubjects.appId, appId));
  // Variables of the variable library: a lab window after the event, or a template line naming it.
  const vars = await db
    .select({ code: variables.code, derivation: variables.derivation })
    .from(variables)
    .where(eq(variables.appId, appId));
  const usesVariable = (d: { kind?: string; t0EventId?: number | null; rule?: string }) =>
    (d.kind === 'lab' && d.t0EventId === id) ||
    (d.kind === 'field' && t0IdsOfRule(d.rule ?? '').includes(id));
  return [
    ...libraries.filter((l) => usesRules(l.rules)).map((l) => l.name),
    ...vars
      .filter((v) => usesVariable(v.derivation as Parameters<typeof usesVariable>[0]))
      .map((v) => v.code),
    ...templates.filter((t) => usesRules(t.rules)).map((t) => t.name),
    ...subjects
      .filter((s) => (s.variables as Array<{ t0EventId?: number }>).some((v) => v.t0EventId === id))
      .map((s) => s.name),
  ];
}

/** 409 when anything still counts time from the event. */
export async function refuseT0EventInUse(db: Tx, appId: number, id: number) {
  const users = await t0EventUsers(db, appId, id);
  if (!users.length) return;
  const names = users.slice(0, 5).join('、');
  const more = users.length > 5 ? ` …（${users.length}）` : '';
  throw new AppError(409, 'request.conflict', {
    detail: bilingual(
      `该 T0 事件是以下专病库、模板、科研变量或科研课题的时间零点，请先修改它们：${names}${more}`,
      `this T0 event is the zero point of these libraries, templates, variables or research subjects; change them first: ${users.slice(0, 5).join(', ')}${users.length > 5 ? ` … (${users.length})` : ''}`,
    ),
  });
}
