import { type X2jOptions, XMLParser } from 'fast-xml-parser';

/**
 * The XML reading shared by the case-record mapping (`record.ts`) and the ODM import
 * (`io/odm.ts`): fast-xml-parser with attributes as `@_name`, namespaces dropped, values kept as
 * text, and every element a list, so a walker never asks whether there was one or several.
 */
export type XNode = Record<string, unknown>;

export const xmlParser = (options: Partial<X2jOptions> = {}) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
    ...options,
  });

/** The child elements of a name; a text-only child becomes `{ '#text': ... }`. */
export function kids(node: XNode | undefined, name: string): XNode[] {
  const v = node?.[name];
  if (!Array.isArray(v)) return [];
  return v.map((c) => (typeof c === 'object' && c !== null ? (c as XNode) : { '#text': String(c) }));
}

/** An attribute's value as written, or undefined. */
export function attr(node: XNode | undefined, name: string): string | undefined {
  const v = node?.[`@_${name}`];
  return v === undefined ? undefined : String(v);
}

/** The element's own text, trimmed; undefined when there is none. */
export function text(node: XNode | undefined): string | undefined {
  const t = node?.['#text'];
  return t === undefined || String(t).trim() === '' ? undefined : String(t).trim();
}
