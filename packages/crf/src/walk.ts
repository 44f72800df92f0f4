import { CONTAINER_FIELDS, type Form, type FormElement, type FormItem, ITEM_TYPES } from './types.js';

/**
 * The one walk over a form's element tree: pages hold items and containers (groups, panels,
 * tables...) under the CONTAINER_FIELDS, containers hold more of the same. The engine, the schema
 * check, the server (exports, datasets, answer keys) and the web (renderer, designer) all walk
 * with these functions, so they agree on what is in a form and in what order.
 */

const ITEM_TYPE_SET = new Set<string>(ITEM_TYPES);

/** An item (it has an item type); anything else on a page is a container. */
export function isItem(element: FormElement): element is FormItem {
  return typeof element.type === 'string' && ITEM_TYPE_SET.has(element.type);
}

/** The children of a page or container: every container field in order, objects only. */
export function childrenOf(element: FormElement): FormElement[] {
  const out: FormElement[] = [];
  for (const field of CONTAINER_FIELDS) {
    const list = (element as Record<string, unknown>)[field];
    if (Array.isArray(list)) for (const c of list) if (c && typeof c === 'object') out.push(c as FormElement);
  }
  return out;
}

/** Where the walk is. The arrays are the walk's own stacks: copy them to keep them. */
export interface WalkPlace {
  /** The page's index in `form.pages` (0-based). */
  page: number;
  /** The containers around the element, outermost first; the page is not one of them. */
  parents: readonly FormElement[];
  /** From the page to the element: container field and index, e.g. `['items', 2, 'groups', 0]`. */
  path: readonly (string | number)[];
}

/**
 * Visits every element below a page or container, depth first in document order (a container
 * before its children). Returning `false` for a container skips its children.
 */
export function walkBelow(
  root: FormElement,
  visit: (element: FormElement, at: WalkPlace) => unknown,
  page = 0,
): void {
  const parents: FormElement[] = [];
  const path: (string | number)[] = [];
  const at: WalkPlace = { page, parents, path };
  const walk = (container: FormElement) => {
    for (const field of CONTAINER_FIELDS) {
      const list = (container as Record<string, unknown>)[field];
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const e = list[i] as FormElement;
        if (!e || typeof e !== 'object') continue;
        path.push(field, i);
        if (visit(e, at) !== false && !isItem(e)) {
          parents.push(e);
          walk(e);
          parents.pop();
        }
        path.length -= 2;
      }
    }
  };
  walk(root);
}

/** `walkBelow` on every page of the form in turn. */
export function walkForm(form: Form, visit: (element: FormElement, at: WalkPlace) => unknown): void {
  form.pages.forEach((p, i) => {
    walkBelow(p, visit, i);
  });
}

export interface PlacedItem {
  item: FormItem;
  /** The page's index in `form.pages` (0-based). */
  page: number;
  /** The containers around the item, outermost first. */
  parents: FormElement[];
}

/** Every item of the form in document order (paragraphs included), with its page and containers. */
export function formItems(form: Form): PlacedItem[] {
  const out: PlacedItem[] = [];
  walkForm(form, (e, at) => {
    if (isItem(e)) out.push({ item: e, page: at.page, parents: [...at.parents] });
  });
  return out;
}

/** The items that hold an answer: every item but paragraphs (text shown to the reader). */
export const answerItems = (form: Form): PlacedItem[] =>
  formItems(form).filter((x) => x.item.type !== 'paragraph');
