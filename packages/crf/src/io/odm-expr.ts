import { scanTokens } from '@crdp/core';
import { parseOperator } from '../conditions.js';

/**
 * CRDP's expression language in ODM `FormalExpression Context="crdp"` (documented in README,
 * "CDISC ODM 1.3.2"): a show rule's test and a computed item's function, written so the importer
 * reads them back exactly.
 *
 *   condition := '!(' term (' or ' term)* ')'  — "not collected unless one of the terms holds"
 *   term      := REF ('=='|'!='|'<'|'>'|'<='|'>=') LITERAL | OPERATOR '(' REF ', ' LITERAL ')'
 *   method    := FUNCTION '(' arg (', ' arg)* ')' ; arg := REF | ('x'|'y') '=' REF | 'compare=' LITERAL
 *
 * REF is an ItemOID (or an item's Name), LITERAL a JSON value (string, number, boolean, null, list).
 */

export const CRDP_CONTEXT = 'crdp';

const SYMBOLS: Record<string, string> = {
  equals: '==',
  notEquals: '!=',
  lessThan: '<',
  greaterThan: '>',
  lessOrEqual: '<=',
  greaterOrEqual: '>=',
};
const BY_SYMBOL: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SYMBOLS).map(([k, v]) => [v, k])),
  '=': 'equals',
  '<>': 'notEquals',
};

export interface Term {
  ref: string;
  /** A canonical operator of `conditions.ts`. */
  condition: string;
  value: unknown;
}

const literal = (v: unknown) => JSON.stringify(v === undefined ? null : v);

/** One test as text; undefined when its operator is not one CRDP knows. */
export function termText(t: { ref: string; condition: string; value: unknown }): string | undefined {
  const op = parseOperator(t.condition);
  if (!op) return undefined;
  const sym = SYMBOLS[op];
  return sym ? `${t.ref} ${sym} ${literal(t.value)}` : `${op}(${t.ref}, ${literal(t.value)})`;
}

export const conditionText = (terms: string[]) => `!(${terms.join(' or ')})`;

export interface MethodCall {
  func: string;
  fields: string[];
  x?: string | undefined;
  y?: string | undefined;
  compare?: unknown;
}

export function methodText(m: MethodCall): string {
  const args = [...m.fields];
  if (m.x !== undefined) args.push(`x=${m.x}`);
  if (m.y !== undefined) args.push(`y=${m.y}`);
  if (m.compare !== undefined) args.push(`compare=${literal(m.compare)}`);
  return `${m.func}(${args.join(', ')})`;
}

// ---------------------------------------------------------------------------------------------
// Reading

type Token =
  | { k: 'id'; v: string }
  | { k: 'lit'; v: unknown }
  | { k: 'op'; v: string }
  | { k: 'p'; v: '(' | ')' | ',' | '!' | '=' };

function tokens(src: string): Token[] | null {
  const out: Token[] = [];
  const read = (rest: string, i: number, c: string): number => {
    const op = /^(==|!=|<>|<=|>=|<|>|\|\|)/.exec(rest);
    if (op) {
      out.push({ k: 'op', v: op[1]! });
      return op[1]!.length;
    }
    if ('(),!='.includes(c)) {
      out.push({ k: 'p', v: c as '(' });
      return 1;
    }
    if (c === '"' || c === "'") {
      // A JSON string (or a single-quoted one, as other systems write).
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return 0;
      const body = src.slice(i + 1, j);
      try {
        out.push({ k: 'lit', v: c === '"' ? JSON.parse(`"${body}"`) : body });
      } catch {
        return 0;
      }
      return j + 1 - i;
    }
    if (c === '[') {
      // A JSON list: up to its matching bracket, strings skipped.
      let depth = 0;
      let j = i;
      for (; j < src.length; j++) {
        const d = src[j]!;
        if (d === '"') {
          j++;
          while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
        } else if (d === '[') depth++;
        else if (d === ']' && --depth === 0) break;
      }
      try {
        out.push({ k: 'lit', v: JSON.parse(src.slice(i, j + 1)) });
      } catch {
        return 0;
      }
      return j + 1 - i;
    }
    const num = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(rest);
    if (num) {
      out.push({ k: 'lit', v: Number(num[0]) });
      return num[0].length;
    }
    const id = /^[A-Za-z_][\w.-]*/.exec(rest);
    if (id) {
      const v = id[0];
      out.push(
        v === 'true' || v === 'false' || v === 'null' ? { k: 'lit', v: JSON.parse(v) } : { k: 'id', v },
      );
      return v.length;
    }
    return 0;
  };
  return scanTokens(src, read) ? out : null;
}

const isP = (t: Token | undefined, v: string) => t?.k === 'p' && t.v === v;

function readTerm(ts: Token[], at: number): { term: Term; next: number } | null {
  const a = ts[at];
  const b = ts[at + 1];
  const c = ts[at + 2];
  if (a?.k === 'id' && b?.k === 'op' && c?.k === 'lit') {
    const condition = BY_SYMBOL[b.v];
    return condition ? { term: { ref: a.v, condition, value: c.v }, next: at + 3 } : null;
  }
  if (a?.k === 'id' && isP(b, '(') && c?.k === 'id' && isP(ts[at + 3], ',')) {
    const v = ts[at + 4];
    const op = parseOperator(a.v);
    if (op && v?.k === 'lit' && isP(ts[at + 5], ')'))
      return { term: { ref: c.v, condition: op, value: v.v }, next: at + 6 };
  }
  return null;
}

/**
 * A condition as its terms: `negated` when written `!( ... )` (CRDP's form: not collected unless a
 * term holds); null when it is not one test or an `or` of tests in this grammar.
 */
export function readCondition(expr: string): { negated: boolean; terms: Term[] } | null {
  const ts = tokens(expr.trim());
  if (!ts?.length) return null;
  let at = 0;
  let end = ts.length;
  let negated = false;
  if (isP(ts[0], '!') && isP(ts[1], '(') && isP(ts[ts.length - 1], ')')) {
    negated = true;
    at = 2;
    end = ts.length - 1;
  }
  const terms: Term[] = [];
  for (;;) {
    const r = readTerm(ts, at);
    if (!r) return null;
    terms.push(r.term);
    at = r.next;
    if (at === end) break;
    const sep = ts[at];
    if (!(sep?.k === 'id' && sep.v.toLowerCase() === 'or') && !(sep?.k === 'op' && sep.v === '||'))
      return null;
    at++;
  }
  return { negated, terms };
}

/** A method expression as a call; null when it is not one in this grammar. */
export function readMethod(expr: string): MethodCall | null {
  const ts = tokens(expr.trim());
  if (!ts || ts.length < 3 || ts[0]?.k !== 'id' || !isP(ts[1], '(') || !isP(ts[ts.length - 1], ')'))
    return null;
  const call: MethodCall = { func: ts[0].v, fields: [] };
  let at = 2;
  const end = ts.length - 1;
  while (at < end) {
    const a = ts[at];
    if (a?.k === 'id' && isP(ts[at + 1], '=')) {
      const v = ts[at + 2];
      if (a.v === 'compare' && v?.k === 'lit') call.compare = v.v;
      else if ((a.v === 'x' || a.v === 'y') && v?.k === 'id') call[a.v] = v.v;
      else return null;
      at += 3;
    } else if (a?.k === 'id') {
      call.fields.push(a.v);
      at++;
    } else return null;
    if (at < end) {
      if (!isP(ts[at], ',')) return null;
      at++;
    }
  }
  return call;
}
