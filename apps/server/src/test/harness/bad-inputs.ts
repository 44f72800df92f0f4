import fc from 'fast-check';

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

/** Values that violate a property's schema by type or bound (never a valid value by chance). */
export function violations(s: JsonSchema, strings: string[]): unknown[] {
  const types = new Set(typesOf(s));
  if (types.has('any')) return [];
  const out: unknown[] = [];
  if (!types.has('string') && !types.has('enum')) out.push(...strings.slice(0, 3), 'not-a-number');
  if (types.has('enum')) out.push(...strings.filter((x) => !s.enum!.includes(x)).slice(0, 3), 12345);
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
