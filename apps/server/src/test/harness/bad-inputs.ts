import fc from 'fast-check';
import type { HarnessRoute } from './routes.js';

/** Strings an attacker or a broken client sends: injections, markup, control and odd unicode. */
export const NASTY_STRINGS = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "admin'--",
  '" UNION SELECT password_hash FROM users --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '\u0000\u0001\u0002\u001b[31m',
  '\u202e\u200b\ufeff',
  '𠀀𝕏👩‍⚕️中文',
  '%00%0d%0a',
  '',
  ' ',
  'ab\u0000cd',
  'a\ud800b',
  "' OR 1=1 --",
  "'; DROP TABLE x; --",
  "%' AND '1'='1",
  // Regular expressions that backtrack without end or do not compile (cleaning rules' patterns).
  '(a+)+$',
  '(?<v>(\\d+)+)x',
  '(?<v>\\d+',
];

/** A few random strings of every kind of unicode, reproducible (fixed seed). */
export function sampledStrings(count: number, seed = 42) {
  return fc.sample(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(...NASTY_STRINGS),
    ),
    { numRuns: count, seed },
  );
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
}

const typesOf = (s: JsonSchema): string[] => {
  if (s.anyOf) return s.anyOf.flatMap(typesOf);
  if (s.enum) return ['enum'];
  return [s.type ?? 'any'].flat();
};

const enumsOf = (s: JsonSchema): unknown[] => [...(s.enum ?? []), ...(s.anyOf ?? []).flatMap(enumsOf)];

/** Values that violate a property's schema by type or bound (never a valid value by chance). */
export function violations(s: JsonSchema, strings: string[]): unknown[] {
  const types = new Set(typesOf(s));
  if (types.has('any')) return [];
  const out: unknown[] = [];
  if (!types.has('string') && !types.has('enum')) out.push(...strings.slice(0, 3), 'not-a-number');
  if (types.has('enum')) {
    // The allowed values, also when the enum is one branch of an anyOf (an enum or null).
    const allowed = enumsOf(s);
    out.push(...strings.filter((x) => !allowed.includes(x)).slice(0, 3), 12345);
  }
  if (!types.has('number') && !types.has('integer')) out.push(-1, 1.5, 1e308);
  if (types.has('integer')) out.push(1.5, -0.5, 1e21);
  if ((types.has('integer') || types.has('number')) && s.minimum !== undefined) out.push(s.minimum - 1);
  if ((types.has('integer') || types.has('number')) && s.maximum !== undefined) out.push(s.maximum * 10 + 1);
  if (!types.has('boolean')) out.push(true);
  if (!types.has('object')) out.push({ nested: { deeper: strings[0] } });
  if (!types.has('array')) out.push([strings[1], 1, null]);
  if (!types.has('null')) out.push(null);
  if (types.has('string') && s.maxLength !== undefined)
    out.push((strings[2] ?? 'x').padEnd(s.maxLength + 1, '中'));
  return out;
}

export interface BadBody {
  name: string;
  payload: string;
  contentType: string;
}

const json = (name: string, v: unknown): BadBody => ({
  name,
  payload: JSON.stringify(v),
  contentType: 'application/json',
});

/** Bodies that must be refused for an object schema: wrong shapes, missing fields, wrong types, broken transport. */
export function badBodies(schema: JsonSchema | undefined, strings: string[]): BadBody[] {
  const out: BadBody[] = [
    { name: 'malformed JSON', payload: '{"a": [1, 2', contentType: 'application/json' },
    { name: 'wrong content type', payload: 'name=value', contentType: 'text/plain' },
    { name: 'xml', payload: '<a>1</a>', contentType: 'application/xml' },
    {
      name: 'huge body',
      payload: JSON.stringify({ big: 'x'.repeat(1_100_000) }),
      contentType: 'application/json',
    },
    { name: 'deep JSON', payload: `${'['.repeat(3000)}${']'.repeat(3000)}`, contentType: 'application/json' },
    json('array instead of object', [strings[0]]),
    json('string instead of object', strings[1] ?? 'x'),
    json('number instead of object', -12.5),
  ];
  const props = schema?.properties ?? {};
  const required = schema?.required ?? [];
  if (required.length) out.push(json('empty object', {}));
  for (const [key, prop] of Object.entries(props)) {
    for (const [i, v] of violations(prop, strings).entries())
      out.push(json(`${key} violation ${i}`, { [key]: v }));
  }
  return out;
}

/** Query strings that violate a querystring schema (values of the wrong kind, over-long, missing required). */
export function badQueries(schema: JsonSchema | undefined, strings: string[]): string[] {
  const props = schema?.properties ?? {};
  const out: string[] = [];
  if ((schema?.required ?? []).length) out.push('');
  for (const [key, prop] of Object.entries(props)) {
    const types = new Set(typesOf(prop));
    const values = [...strings.slice(0, 4)];
    if (types.has('integer') || types.has('number'))
      values.push('-1', '1.5', '1e309', 'NaN', '99999999999999999999');
    if (prop.maxLength !== undefined) values.push('x'.repeat(prop.maxLength + 1));
    for (const v of values) out.push(`${encodeURIComponent(key)}=${encodeURIComponent(v)}`);
  }
  return out;
}

export const BAD_PATH_VALUES = [
  'abc',
  '-1',
  '1.5',
  '99999999999999999999',
  "1' OR '1'='1",
  '%00',
  '%E4%B8%AD',
  '0',
];

// ---------------------------------------------------------------------------------------------
// Bad values in otherwise valid requests. The generators above mostly send a bad value alone,
// so the route's schema refuses the request for a missing field before the value reaches a
// handler or the database; a NUL byte in a text field passed every schema and came back as a
// 500 from PostgreSQL on about 30 routes. Below: a valid request built from the route's own
// schema, with one value replaced at a time (the rest still valid), so each bad value gets as
// far as the server lets it.
// ---------------------------------------------------------------------------------------------

/** The JSON Schema subset that the OpenAPI document holds for our zod schemas. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/** Strings no text field may hold: each must be refused with a 400, and nothing may change. */
export const REFUSED_STRINGS = [
  'ab\u0000cd',
  '\u0000',
  'x\u0001\u001b[31m',
  'note\u007f',
  'x\u0085y',
  'a\ud800b',
  '\udfff',
];

/** Query-string and path forms of refused values (a lone surrogate cannot travel as UTF-8). */
export const REFUSED_URL_VALUES = ['ab%00cd', '%00', '%01x', 'x%C2%85'];

/** Odd but well-formed strings: may be stored or refused, but never a 5xx. */
export const ODD_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE x; --",
  "%' AND '1'='1",
  '12',
  '-0',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999999999999',
  '2026-02-30',
  '2026-02-30T08:00:00+08:00',
  '0000-00-00T25:61:61Z',
  '%',
  '_',
  '\\',
];

/** A deeply nested object, put once per route where a value of the top level goes. */
export const DEEP_OBJECT: unknown = JSON.parse(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`);

/**
 * Odd numbers written as JSON text: `1e309` parses to Infinity, a long digit string to a float
 * that is no longer the number written. They cannot be made with JSON.stringify, so the body is
 * written with a placeholder and the placeholder replaced.
 */
export const ODD_NUMBER_TEXTS = ['1e309', '-1e309', '99999999999999999999999999999999', '-0', '1e-400'];
export const RAW = '\u2063RAW\u2063';

const MEMBERS = (s: Schema) => s.anyOf ?? s.oneOf ?? null;

/** One step of a path into a value: an object property, an array item, a variant of a union. */
export type Step = { prop: string } | { item: number } | { variant: number };

export interface Leaf {
  path: Step[];
  schema: Schema;
  /** Dotted, for messages: body.items.0.name */
  name: string;
}

const primary = (s: Schema): string => {
  if (s.const !== undefined) return 'const';
  if (s.enum) return 'enum';
  const t = [s.type ?? 'any'].flat().filter((x) => x !== 'null');
  return t[0] ?? 'null';
};

/** Every scalar position of a schema (strings first of all), up to a depth, with its path. */
export function leavesOf(schema: Schema | undefined, maxDepth = 5): Leaf[] {
  const out: Leaf[] = [];
  const walk = (s: Schema, path: Step[], name: string[], depth: number) => {
    if (depth > maxDepth) return;
    if (s.allOf?.length) return walk(Object.assign({}, ...s.allOf), path, name, depth);
    const members = MEMBERS(s);
    if (members) {
      // Each variant of a union, named by its `kind` (or its number) after the path so far.
      for (const [i, m] of members.entries()) {
        if (primary(m) === 'null') continue;
        const label = `(${String(m.properties?.kind?.const ?? i)})`;
        const named = name.length ? [...name.slice(0, -1), `${name.at(-1)}${label}`] : [label];
        walk(m, [...path, { variant: i }], named, depth + 1);
      }
      return;
    }
    const t = primary(s);
    if (t === 'object' && s.properties) {
      for (const [k, p] of Object.entries(s.properties))
        walk(p, [...path, { prop: k }], [...name, k], depth + 1);
      return;
    }
    if (t === 'object' && typeof s.additionalProperties === 'object') {
      // A record: one entry under a made-up key.
      walk(s.additionalProperties, [...path, { prop: 'k1' }], [...name, 'k1'], depth + 1);
      return;
    }
    if (t === 'array' && (s.items || s.prefixItems)) {
      if (s.prefixItems)
        for (const [i, p] of s.prefixItems.entries())
          walk(p, [...path, { item: i }], [...name, String(i)], depth + 1);
      else walk(s.items!, [...path, { item: 0 }], [...name, '0'], depth + 1);
      return;
    }
    out.push({ path, schema: s, name: name.join('.') });
  };
  if (schema) walk(schema, [], [], 0);
  return out;
}

const SIMPLE_STRINGS = ['abc', 'K70', 'a', 'A1', 'x-1', '1', 'M-1', 'demo'];

/** A string valid for a schema (length, pattern, format), reproducible. */
export function validString(s: Schema): string {
  const fits = (v: string) =>
    v.length >= (s.minLength ?? 0) &&
    v.length <= (s.maxLength ?? Number.POSITIVE_INFINITY) &&
    (!s.pattern || new RegExp(s.pattern, 'u').test(v));
  switch (s.format) {
    case 'date':
      return '2026-01-15';
    case 'date-time':
      return '2026-01-15T08:00:00.000Z';
    case 'time':
      return '08:00:00';
    case 'email':
      return 'fuzz@example.com';
    case 'uuid':
      return '8d3f6c2e-4b1a-4c7e-9f2d-1a2b3c4d5e6f';
    case 'uri':
    case 'url':
      return 'https://example.com/x';
  }
  for (const v of SIMPLE_STRINGS) if (fits(v)) return v;
  if (s.pattern) {
    const found = fc
      .sample(fc.stringMatching(new RegExp(s.pattern)), { numRuns: 50, seed: 7 })
      .find((v) => fits(v) && /^[\x20-\x7e]*$/.test(v));
    if (found !== undefined) return found;
  }
  return 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** A number valid for a schema's bounds. */
function validNumber(s: Schema, integer: boolean): number {
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 0.5) : 1);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : lo + 10);
  if (lo < 1 && hi >= 1) lo = 1;
  return integer ? Math.ceil(lo) : lo;
}

/**
 * A value valid for the schema, with only the required properties, and with `target.value` at
 * `target.path` (the properties, items and variants on that path are built to reach it).
 */
export function buildValue(schema: Schema, target?: { path: Step[]; value: unknown }, depth = 0): unknown {
  const [step, ...rest] = target?.path ?? [];
  if (target && !step) return target.value;
  if (depth > 12) return null;
  const s = schema.allOf?.length ? (Object.assign({}, ...schema.allOf) as Schema) : schema;
  const members = MEMBERS(s);
  if (members) {
    if (step && 'variant' in step)
      return buildValue(members[step.variant]!, { path: rest, value: target!.value }, depth + 1);
    const m = members.find((x) => primary(x) !== 'null') ?? members[0]!;
    return buildValue(m, undefined, depth + 1);
  }
  if (s.default !== undefined && !target) return s.default;
  const t = primary(s);
  switch (t) {
    case 'const':
      return s.const;
    case 'enum':
      return s.enum![0];
    case 'string':
      return validString(s);
    case 'integer':
      return validNumber(s, true);
    case 'number':
      return validNumber(s, false);
    case 'boolean':
      return false;
    case 'array': {
      const n = Math.max(
        s.minItems ?? 0,
        step && 'item' in step ? step.item + 1 : 0,
        s.prefixItems?.length ?? 0,
      );
      return Array.from({ length: n }, (_, i) => {
        const item = s.prefixItems?.[i] ?? s.items ?? {};
        return step && 'item' in step && step.item === i
          ? buildValue(item, { path: rest, value: target!.value }, depth + 1)
          : buildValue(item, undefined, depth + 1);
      });
    }
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const k of s.required ?? []) {
        const p = s.properties?.[k];
        if (p) o[k] = buildValue(p, undefined, depth + 1);
      }
      if (step && 'prop' in step) {
        const p =
          s.properties?.[step.prop] ??
          (typeof s.additionalProperties === 'object' ? s.additionalProperties : {});
        o[step.prop] = buildValue(p, { path: rest, value: target!.value }, depth + 1);
      }
      return o;
    }
    default:
      return 'x';
  }
}

/** The refused and odd values to put at a leaf: strings where text goes, odd values everywhere. */
export function leafValues(leaf: Leaf): { refused: unknown[]; odd: unknown[]; oddNumbers: string[] } {
  const t = primary(leaf.schema);
  const text = t === 'string' || t === 'any';
  const numeric = t === 'integer' || t === 'number';
  return {
    refused: text ? REFUSED_STRINGS : t === 'object' ? [{ 'k\u0000': 'v\u0000' }] : [],
    // Kept small: every leaf of every route gets these, and the run must stay short for CI.
    odd: text
      ? [
          ...ODD_STRINGS.slice(0, 3),
          '2026-02-30',
          // Date.parse rolls it over to 2 March: a schema that trusts it hands PostgreSQL a bad timestamp.
          '2026-02-30T08:00:00+08:00',
          '99999999999999999999999999999999',
          12,
          { $gt: '' },
          [null, null],
        ]
      : [...(numeric ? ['12', 'NaN', '-0'] : ['12']), 1.5, { $gt: '' }, [null, null]],
    oddNumbers: numeric ? ODD_NUMBER_TEXTS.slice(0, 4) : [],
  };
}

/**
 * The query string of a route with its required fields holding valid values, and one field
 * (`replace`, already encoded) holding the value under test.
 */
export function queryOf(route: HarnessRoute, replace?: { name: string; value: string }) {
  const parts: string[] = [];
  for (const [k, p] of Object.entries(route.query?.properties ?? {})) {
    if (replace?.name === k) parts.push(`${encodeURIComponent(k)}=${replace.value}`);
    else if (route.query?.required.includes(k))
      parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(buildValue(p as Schema)))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
