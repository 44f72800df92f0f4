import type { Form, FormElement, FormItem, ItemType } from '@crdp/crf';
import { CONTAINER_FIELDS, FormParseError, formItems, isItem, walkForm } from '@crdp/crf';

export { isItem };

/**
 * Editing operations of the designer on a form JSON. Each returns a new form object: the
 * engine caches a compiled form per object, so a form is never changed after use.
 */
export const pageItems = (form: Form, page: number): FormElement[] =>
  (form.pages[page]?.items as FormElement[] | undefined) ?? [];

export const allItems = (form: Form): FormItem[] => formItems(form).map((x) => x.item);

export function freshKey(form: Form, prefix: string): string {
  const used = new Set<string>();
  for (const p of form.pages) if (typeof p.key === 'string') used.add(p.key);
  walkForm(form, (e) => {
    if (typeof e.key === 'string') used.add(e.key);
  });
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** Words of a new item's starting options, in the designer's language. */
export interface StarterWords {
  yes: string;
  no: string;
  mild: string;
  moderate: string;
  severe: string;
  row: string;
}
const ZH_WORDS: StarterWords = { yes: '是', no: '否', mild: '轻', moderate: '中', severe: '重', row: '行' };

export function newItem(form: Form, type: ItemType, title: string, w: StarterWords = ZH_WORDS): FormItem {
  const key = freshKey(form, 'q');
  const base: FormItem = { key, type, title };
  switch (type) {
    case 'radio':
    case 'checkbox':
      return {
        ...base,
        options: [
          { name: w.yes, code: '1' },
          { name: w.no, code: '0' },
        ],
      };
    case 'score':
      return {
        ...base,
        options: [
          { name: w.mild, code: '1', score: 1 },
          { name: w.moderate, code: '2', score: 2 },
          { name: w.severe, code: '3', score: 3 },
        ],
      };
    case 'gapFilling':
      return { ...base, title: `${title} ___`, gapFilling: [{ key: 'b1', gapFillingProperty: 'text' }] };
    case 'matrix':
      return {
        ...base,
        forM: 'radio',
        rows: [
          { key: 'r1', name: `${w.row} 1` },
          { key: 'r2', name: `${w.row} 2` },
        ],
        columns: [
          { name: w.yes, code: '1' },
          { name: w.no, code: '0' },
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
  walkForm(next, (e, at) => {
    if (!isItem(e) || e.key !== key) return;
    // The list the item sits in: the last container field and index of its path.
    const owner = (at.parents[at.parents.length - 1] ?? next.pages[at.page]) as Record<string, FormElement[]>;
    owner[at.path[at.path.length - 2] as string]![at.path[at.path.length - 1] as number] = item;
  });
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

// ---------------------------------------------------------------------------------------------
// Containers (groups) on a page

/** Where an element sits: the page's own list (`container` null) or a container's, at `index`. */
export interface Loc {
  container: string | null;
  index: number;
}

/** The field a page or container keeps its children under: the first one present, else `items`. */
export function childField(e: FormElement): (typeof CONTAINER_FIELDS)[number] {
  for (const f of CONTAINER_FIELDS) if (Array.isArray((e as Record<string, unknown>)[f])) return f;
  return 'items';
}

export const childrenOf = (e: FormElement): FormElement[] =>
  ((e as Record<string, unknown>)[childField(e)] as FormElement[] | undefined) ?? [];

export const isContainer = (e: FormElement) => !isItem(e);

/** The container with this key on a page, at any depth. */
export function findContainer(form: Form, page: number, key: string): FormElement | undefined {
  const walk = (list: FormElement[]): FormElement | undefined => {
    for (const e of list) {
      if (isContainer(e) && e.key === key) return e;
      if (isContainer(e)) {
        const found = walk(childrenOf(e));
        if (found) return found;
      }
    }
    return undefined;
  };
  const p = form.pages[page];
  return p ? walk(childrenOf(p)) : undefined;
}

/** The list of a page or of one of its containers, in a form that may be changed (a clone). */
function listIn(form: Form, page: number, container: string | null): FormElement[] | null {
  const p = form.pages[page];
  if (!p) return null;
  const owner = container === null ? p : findContainer(form, page, container);
  if (!owner) return null;
  const field = childField(owner);
  const rec = owner as Record<string, unknown>;
  if (!Array.isArray(rec[field])) rec[field] = [];
  return rec[field] as FormElement[];
}

/** Elements of a list, top level (container null) or inside a container. */
export function elementsAt(form: Form, page: number, container: string | null): FormElement[] {
  const p = form.pages[page];
  if (!p) return [];
  const owner = container === null ? p : findContainer(form, page, container);
  return owner ? childrenOf(owner) : [];
}

/** A new group (分组) container with a fresh key and no items yet. */
export function newGroup(form: Form, title: string): FormElement {
  return { key: freshKey(form, 'g'), type: 'group', title, items: [] };
}

/** Adds an element at the end of the page or of a container on it. */
export function addElement(form: Form, page: number, element: FormElement, container: string | null = null) {
  const next = clone(form);
  const list = listIn(next, page, container);
  if (!list) return form;
  list.push(element);
  return next;
}

function keysIn(e: FormElement): string[] {
  const own = typeof e.key === 'string' ? [e.key] : [];
  return isItem(e) ? own : [...own, ...childrenOf(e).flatMap(keysIn)];
}

/**
 * Moves an element within a page: inside a list, into a container or out of it. `to.index` is
 * the position in the target list as it was before the move. A container never moves into itself.
 */
export function moveElement(form: Form, page: number, from: Loc, to: Loc): Form {
  const source = elementsAt(form, page, from.container);
  const moving = source[from.index];
  if (!moving) return form;
  if (to.container !== null && keysIn(moving).includes(to.container)) return form;
  const target = elementsAt(form, page, to.container);
  if (to.index < 0 || to.index > target.length) return form;
  if (from.container === to.container && (to.index === from.index || to.index === from.index + 1))
    return form;
  const next = clone(form);
  const src = listIn(next, page, from.container)!;
  const [x] = src.splice(from.index, 1);
  const dst = listIn(next, page, to.container)!;
  const at = from.container === to.container && to.index > from.index ? to.index - 1 : to.index;
  dst.splice(at, 0, x!);
  return next;
}

/** Swaps an element with its neighbour in the same list (the ↑ ↓ buttons). */
export function shiftElement(form: Form, page: number, at: Loc, by: -1 | 1): Form {
  const list = elementsAt(form, page, at.container);
  const to = at.index + by;
  if (to < 0 || to >= list.length) return form;
  return moveElement(form, page, at, { container: at.container, index: by > 0 ? to + 1 : to });
}

/**
 * Removes an element, a container with everything in it. Show rules lose the removed keys from
 * what they show, and a rule tested on a removed item goes with it: it could never hold again.
 */
export function removeElement(form: Form, page: number, at: Loc): Form {
  const gone = elementsAt(form, page, at.container)[at.index];
  if (!gone) return form;
  const removed = new Set(keysIn(gone));
  const next = clone(form);
  listIn(next, page, at.container)!.splice(at.index, 1);
  if (next.showRules) {
    const keep = (v: string[] | string | undefined) =>
      v === undefined ? v : (Array.isArray(v) ? v : [v]).filter((k) => !removed.has(k));
    next.showRules = next.showRules
      .filter((r) => !r.indicatorName || !removed.has(r.indicatorName))
      .map((r) => {
        const out = { ...r };
        if (r.selectItems !== undefined) out.selectItems = keep(r.selectItems);
        if (r.selectPanel !== undefined) out.selectPanel = keep(r.selectPanel);
        return out;
      });
  }
  return next;
}

/** Changes fields of a container (its title) wherever it is on the page. */
export function updateContainer(form: Form, page: number, key: string, patch: Record<string, unknown>): Form {
  const next = clone(form);
  const c = findContainer(next, page, key);
  if (!c) return form;
  Object.assign(c, patch);
  return next;
}

/** Where an item sits: its page and its place in the page's or a container's list. */
export interface ItemLoc extends Loc {
  page: number;
}

/** Finds an item by key on any page, inside containers at any depth (null when there is none). */
export function locateItem(form: Form, key: string): ItemLoc | null {
  const walk = (list: FormElement[], page: number, container: string | null): ItemLoc | null => {
    for (let index = 0; index < list.length; index++) {
      const e = list[index]!;
      if (isItem(e)) {
        if (e.key === key) return { page, container, index };
      } else if (typeof e.key === 'string') {
        const found = walk(childrenOf(e), page, e.key);
        if (found) return found;
      }
    }
    return null;
  };
  for (let page = 0; page < form.pages.length; page++) {
    const found = walk(childrenOf(form.pages[page]!), page, null);
    if (found) return found;
  }
  return null;
}

/** A place an item can be moved to: a page's own list, or a container on it with its title path. */
export interface MoveTarget {
  page: number;
  container: string | null;
  /** Titles (or keys) of the containers from the outermost one in; empty for the page itself. */
  path: string[];
}

/** Every page and every container (group) on it, at any depth, in reading order. */
export function moveTargets(form: Form): MoveTarget[] {
  const out: MoveTarget[] = [];
  const walk = (list: FormElement[], page: number, path: string[]) => {
    for (const e of list) {
      if (isItem(e) || typeof e.key !== 'string') continue;
      const inner = [...path, (e.title as string | undefined) || e.key];
      out.push({ page, container: e.key, path: inner });
      walk(childrenOf(e), page, inner);
    }
  };
  form.pages.forEach((p, page) => {
    out.push({ page, container: null, path: [] });
    walk(childrenOf(p), page, []);
  });
  return out;
}

/**
 * Moves an item to the end of another page or container (the table editor's "move to"). On the
 * same page this is `moveElement`; across pages the item is taken out and put in as it is, so show
 * rules, which name items by key, keep working. Unknown items or targets leave the form as it was.
 */
export function moveItemTo(form: Form, key: string, page: number, container: string | null): Form {
  const at = locateItem(form, key);
  if (!at) return form;
  if (at.page === page && at.container === container) return form;
  const target = form.pages[page];
  if (!target || (container !== null && !findContainer(form, page, container))) return form;
  if (at.page === page)
    return moveElement(form, page, at, { container, index: elementsAt(form, page, container).length });
  const next = clone(form);
  const [x] = listIn(next, at.page, at.container)!.splice(at.index, 1);
  listIn(next, page, container)!.push(x!);
  return next;
}

/** How many items a container holds, at any depth (for the delete confirmation). */
export const itemCount = (e: FormElement): number =>
  isItem(e) ? 1 : childrenOf(e).reduce((n, c) => n + itemCount(c), 0);

/** One item of the form with where it sits: its page and the containers around it, outermost first. */
export interface ItemRow {
  item: FormItem;
  page: number;
  path: Array<{ key: string | undefined; title: string | undefined }>;
}

/**
 * Every item of the form in reading order, including those inside groups at any depth, with its
 * page and group path (the table editor lists them so). The same walk of `@crdp/crf` as
 * `replaceItem`, so an edit made through a row lands where the item is.
 */
export function itemRows(form: Form): ItemRow[] {
  return formItems(form).map(({ item, page, parents }) => ({
    item,
    page,
    path: parents.map((p) => ({ key: p.key, title: p.title })),
  }));
}

/** Why a form cannot be parsed, in the reader's language (the schema's own checks carry Chinese). */
export function parseFaultText(e: unknown, locale: 'zh-CN' | 'en-US'): string {
  if (e instanceof FormParseError)
    return e.faults
      .map((f) => `${f.path || '(root)'}: ${locale === 'zh-CN' ? (f.messageZh ?? f.message) : f.message}`)
      .join(locale === 'zh-CN' ? '；' : '; ');
  return e instanceof Error ? e.message : String(e);
}
