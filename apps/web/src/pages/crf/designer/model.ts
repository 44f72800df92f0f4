import type { Form, FormElement, FormItem, ItemType } from '@crdp/crf';
import { CONTAINER_FIELDS, ITEM_TYPES } from '@crdp/crf';

/**
 * Editing operations of the designer on a form JSON. Each returns a new form object: the
 * engine caches a compiled form per object, so a form is never changed after use.
 */
const ITEM_TYPE_SET = new Set<string>(ITEM_TYPES);
export const isItem = (e: FormElement): e is FormItem =>
  typeof e.type === 'string' && ITEM_TYPE_SET.has(e.type);

export const pageItems = (form: Form, page: number): FormElement[] =>
  (form.pages[page]?.items as FormElement[] | undefined) ?? [];

export function allItems(form: Form): FormItem[] {
  const out: FormItem[] = [];
  const walk = (e: FormElement) => {
    if (isItem(e)) out.push(e);
    else
      for (const f of CONTAINER_FIELDS) {
        const c = (e as Record<string, unknown>)[f];
        if (Array.isArray(c)) for (const x of c) walk(x as FormElement);
      }
  };
  for (const p of form.pages) walk(p);
  return out;
}

export function freshKey(form: Form, prefix: string): string {
  const used = new Set<string>();
  const walk = (e: FormElement) => {
    if (typeof e.key === 'string') used.add(e.key);
    for (const f of CONTAINER_FIELDS) {
      const c = (e as Record<string, unknown>)[f];
      if (Array.isArray(c)) for (const x of c) walk(x as FormElement);
    }
  };
  for (const p of form.pages) walk(p);
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

export function newItem(form: Form, type: ItemType, title: string): FormItem {
  const key = freshKey(form, 'q');
  const base: FormItem = { key, type, title };
  switch (type) {
    case 'radio':
    case 'checkbox':
      return {
        ...base,
        options: [
          { name: '是', code: '1' },
          { name: '否', code: '0' },
        ],
      };
    case 'score':
      return {
        ...base,
        options: [
          { name: '轻', code: '1', score: 1 },
          { name: '中', code: '2', score: 2 },
          { name: '重', code: '3', score: 3 },
        ],
      };
    case 'gapFilling':
      return { ...base, title: `${title} ___`, gapFilling: [{ key: 'b1', gapFillingProperty: 'text' }] };
    case 'matrix':
      return {
        ...base,
        forM: 'radio',
        rows: [
          { key: 'r1', name: '行 1' },
          { key: 'r2', name: '行 2' },
        ],
        columns: [
          { name: '是', code: '1' },
          { name: '否', code: '0' },
        ],
      };
    case 'textQuestion':
      return { ...base, textType: 'text' };
    default:
      return base;
  }
}

const clone = (f: Form): Form => structuredClone(f);

export function updatePage(form: Form, page: number, patch: Record<string, unknown>): Form {
  const next = clone(form);
  next.pages[page] = { ...next.pages[page], ...patch };
  return next;
}

export function setPageItems(form: Form, page: number, items: FormElement[]): Form {
  return updatePage(form, page, { items });
}

export function addItem(form: Form, page: number, item: FormItem): Form {
  return setPageItems(form, page, [...pageItems(form, page), item]);
}

export function moveItem(form: Form, page: number, from: number, to: number): Form {
  const items = [...pageItems(form, page)];
  if (to < 0 || to >= items.length) return form;
  const [x] = items.splice(from, 1);
  items.splice(to, 0, x!);
  return setPageItems(form, page, items);
}

export function removeItem(form: Form, page: number, index: number): Form {
  const items = pageItems(form, page).filter((_, i) => i !== index);
  return setPageItems(form, page, items);
}

/** Replaces an item anywhere in the form; a changed key follows into rules that name it. */
export function replaceItem(form: Form, key: string, item: FormItem): Form {
  const next = clone(form);
  const walk = (list: FormElement[]) => {
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (isItem(e) && e.key === key) list[i] = item;
      else
        for (const f of CONTAINER_FIELDS) {
          const c = (e as Record<string, unknown>)[f];
          if (Array.isArray(c)) walk(c as FormElement[]);
        }
    }
  };
  for (const p of next.pages)
    for (const f of CONTAINER_FIELDS) {
      const c = (p as Record<string, unknown>)[f];
      if (Array.isArray(c)) walk(c as FormElement[]);
    }
  if (item.key !== key) {
    const rename = (v: unknown): unknown => (v === key ? item.key : Array.isArray(v) ? v.map(rename) : v);
    next.showRules = (next.showRules ?? []).map((r) => ({
      ...r,
      indicatorName: rename(r.indicatorName) as string,
      selectItems: rename(r.selectItems) as string[],
    }));
  }
  return next;
}

export function addPage(form: Form, title: string): Form {
  const next = clone(form);
  next.pages.push({ key: freshKey(form, 'page'), title, items: [] });
  return next;
}
