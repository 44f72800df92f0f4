import { z } from 'zod';
import { formatMessage, type Locale } from '../messages.js';

/**
 * The one rule for text a person or a client sends: no C0/C1 control characters (NUL included:
 * PostgreSQL refuses it in text and JSON, so it used to end in a 500) and no lone UTF-16
 * surrogates (they cannot be stored as UTF-8 and would be replaced silently). Tab, line feed
 * and carriage return are allowed only in multi-line text. The server's text schemas, its
 * backstop over every request and the web's form rules all use these functions.
 */

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE = String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
/** C0 controls, DEL and C1 controls. */
const SINGLE_LINE = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f]|${LONE}`);
/** The same less tab, line feed and carriage return. */
const MULTI_LINE = new RegExp(String.raw`[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|${LONE}`);

export interface TextFault {
  kind: 'control' | 'surrogate';
  /** 1-based, in characters (code points) from the start of the text. */
  position: number;
  /** 1-based line and character in that line, when the text has a line break before the fault. */
  line?: number;
  column?: number;
}

/** The first forbidden character of a text, or null when the text is clean. */
export function findTextFault(text: string, opts: { multiline?: boolean } = {}): TextFault | null {
  const m = (opts.multiline ? MULTI_LINE : SINGLE_LINE).exec(text);
  if (!m) return null;
  const before = text.slice(0, m.index);
  const code = text.charCodeAt(m.index);
  const kind = code >= 0xd800 && code <= 0xdfff ? 'surrogate' : 'control';
  const position = Array.from(before).length + 1;
  const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  if (lastBreak < 0) return { kind, position };
  const line = (before.match(/\r\n|\r|\n/g) ?? []).length + 1;
  return { kind, position, line, column: Array.from(before.slice(lastBreak + 1)).length + 1 };
}

/** The fault in words, without the field: `不能包含控制字符（位置 3）` / `must not contain control characters (position 3)`. */
export function textFaultMessage(fault: TextFault, locale: Locale): string {
  const where =
    fault.line !== undefined
      ? formatMessage('text.lineColumn', locale, { line: fault.line, column: fault.column ?? 1 })
      : formatMessage('text.position', locale, { position: fault.position });
  return formatMessage(fault.kind === 'control' ? 'text.control' : 'text.surrogate', locale, { where });
}

/** The first faulty string or object key found in a parsed JSON value, with its path from the root. */
export interface ValueFault extends TextFault {
  path: Array<string | number>;
  /** True when the fault is in an object key at `path` (the key is the last element). */
  inKey: boolean;
}

/**
 * Walks a parsed JSON value (strings, object keys, arrays; iteratively, so any depth is safe)
 * and returns the first fault. Tab, line feed and carriage return are allowed (the walk does not
 * know which texts are multi-line; the field's own schema decides that).
 */
export function findValueFault(value: unknown): ValueFault | null {
  const stack: Array<{ v: unknown; path: Array<string | number> }> = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const f = findTextFault(v, { multiline: true });
      if (f) return { ...f, path, inKey: false };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        const f = findTextFault(k, { multiline: false });
        if (f) return { ...f, path: [...path, k], inKey: true };
        stack.push({ v: (v as Record<string, unknown>)[k], path: [...path, k] });
      }
    }
  }
  return null;
}

/**
 * A zod refinement for text schemas: refuses control characters and lone surrogates with a
 * message in English (zod's language) that carries the fault in `params.textFault`, so the
 * server words it in the reader's language. `z.string().superRefine(refuseControlChars())`.
 */
export const refuseControlChars =
  (opts: { multiline?: boolean } = {}) =>
  (s: string, ctx: z.RefinementCtx) => {
    const fault = findTextFault(s, opts);
    if (fault)
      ctx.addIssue({
        code: 'custom',
        message: textFaultMessage(fault, 'en-US'),
        params: { textFault: fault },
      });
  };

/**
 * Text of at most `max` UTF-16 units (zod's max counts code points; storage counts units) after
 * trimming (positions count from the trimmed text), at least `min` characters, without control characters (tab, line breaks only when
 * `multiline`) or lone surrogates.
 */
export const safeText = (
  max: number,
  opts: { min?: number; multiline?: boolean; required?: string } = {},
) => {
  let s = z
    .string()
    .trim()
    .superRefine(refuseControlChars({ multiline: opts.multiline ?? false }));
  if (opts.min) s = s.min(opts.min, opts.required);
  return s.max(max).refine((v) => v.length <= max, { message: `must be at most ${max} characters` });
};
