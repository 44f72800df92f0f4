import { answerItems, type Form, type FormItem, itemValueKind } from '@crdp/crf';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { crfForms, crfFormVersions } from '../db/schema/index.js';

/**
 * A subject's CRF form as a source of dataset columns: the items of its latest published
 * version that hold one number (numeric questions, calculations, scores without options) or
 * one choice (single-choice radio, scored options). Text, dates, multiple choices, matrices and
 * uploads are not columns an analysis can use, so they are listed but not offered.
 */
export type CrfItemKind = 'number' | 'choice' | 'other';

export interface CrfItemInfo {
  key: string;
  title: string;
  page: number;
  type: string;
  kind: CrfItemKind;
  /** Choice items: their options; the column holds the code. */
  options: Array<{ code: string | number; name: string }>;
  /** True when every option code is a number, so the column is numeric (0/1 codes feed a regression). */
  numericCodes: boolean;
}

const numericCode = (c: unknown) =>
  typeof c === 'number' ? Number.isFinite(c) : typeof c === 'string' && /^-?\d+(\.\d+)?$/.test(c.trim());

/** The CRF engine's value kind of an item, narrowed to what a dataset column can hold. */
export function itemKind(item: FormItem): CrfItemKind {
  const kind = itemValueKind(item);
  return kind === 'number' || kind === 'choice' ? kind : 'other';
}

export function crfItemsOf(form: Form): CrfItemInfo[] {
  return answerItems(form).map(({ item, page }) => {
    const kind = itemKind(item);
    const options =
      kind === 'choice' ? (item.options ?? []).map((o) => ({ code: o.code, name: o.name })) : [];
    return {
      key: item.key,
      title: item.title ?? item.key,
      page: page + 1,
      type: item.type,
      kind,
      options,
      numericCodes: kind === 'choice' && options.length > 0 && options.every((o) => numericCode(o.code)),
    };
  });
}

/** The app's active forms with at least one published version: the forms a subject may link. */
export async function publishedForms(db: Tx, appId: number) {
  return db
    .select({
      id: crfForms.id,
      name: crfForms.name,
      category: crfForms.category,
      latestVersion: crfForms.latestVersion,
    })
    .from(crfForms)
    .where(and(eq(crfForms.appId, appId), eq(crfForms.status, 'active'), gt(crfForms.latestVersion, 0)))
    .orderBy(desc(crfForms.id))
    .limit(500);
}

/** The latest published version of a form of the app, or null when there is none. */
export async function latestVersionOf(db: Tx, appId: number, formId: number) {
  const [row] = await db
    .select({ name: crfForms.name, version: crfFormVersions.version, definition: crfFormVersions.definition })
    .from(crfForms)
    .innerJoin(
      crfFormVersions,
      and(eq(crfFormVersions.formId, crfForms.id), eq(crfFormVersions.version, crfForms.latestVersion)),
    )
    .where(and(eq(crfForms.id, formId), eq(crfForms.appId, appId)));
  if (!row) return null;
  return { formId, name: row.name, version: row.version, items: crfItemsOf(row.definition as Form) };
}

/** A column key for an item: the item key when it is a valid variable key, else a cleaned `crf_` form. */
export function columnKeyOf(itemKey: string) {
  if (/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(itemKey)) return itemKey;
  return `crf_${itemKey.replace(/[^a-zA-Z0-9_]/g, '_')}`.slice(0, 40);
}

/** The value an answer puts in the dataset: a number for numeric items, the option code for choices. */
export function cellOf(
  info: Pick<CrfItemInfo, 'kind' | 'numericCodes'>,
  answer: unknown,
): number | string | null {
  if (answer === undefined || answer === null || answer === '') return null;
  if (info.kind === 'number') {
    const n = typeof answer === 'number' ? answer : Number(String(answer).trim());
    return Number.isFinite(n) ? n : null;
  }
  if (Array.isArray(answer)) return null;
  if (typeof answer === 'object') return null;
  if (info.numericCodes && numericCode(answer)) return Number(answer);
  return String(answer);
}
