/**
 * Guards a regular expression a person writes before it runs over many documents. JavaScript's
 * engine backtracks, so a pattern such as `(a+)+b` takes exponential time on a long run of `a`.
 * RE2 (linear time) would be the cleanest answer, but its Node binding downloads or compiles a
 * native library at install time, which this project's installs may not do. So a pattern is
 * refused unless it is of a shape whose backtracking stays polynomial, and the engine bounds the
 * text it runs on (one sentence of at most SENTENCE_MAX characters, sections.ts):
 *
 * - at most CLEANING_PATTERN_MAX characters;
 * - no back-references (`\1`, `\k<name>`) and no lookbehind (both escape linear reasoning);
 * - a repeated group (`(…)*`, `(…)+`, `(…){2,}`) may hold neither another repetition nor an
 *   alternative `|` (the shapes of catastrophic backtracking: nested and overlapping repetition);
 * - at most 6 unbounded repetitions (`*`, `+`, `{n,}`) in the whole pattern;
 * - it must compile and must not match the empty text.
 *
 * The answer names the problem in both languages; the server answers it as a 400 on the field.
 */

export interface PatternProblem {
  zh: string;
  en: string;
}

const problem = (zh: string, en: string): PatternProblem => ({ zh, en });

interface Frame {
  hasRepeat: boolean;
  hasAlt: boolean;
  start: number;
}

/** Null when the pattern may run; otherwise why not. `groups` are the named groups it must hold. */
export function checkPattern(
  pattern: string,
  opts: { maxLength: number; groups?: string[] },
): PatternProblem | null {
  if (pattern.length > opts.maxLength)
    return problem(
      `正则表达式过长（最多 ${opts.maxLength} 个字符）`,
      `the pattern is too long (at most ${opts.maxLength} characters)`,
    );
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'd');
  } catch (e) {
    return problem(
      `正则表达式无法编译：${(e as Error).message}`,
      `the pattern does not compile: ${(e as Error).message}`,
    );
  }
  const stack: Frame[] = [{ hasRepeat: false, hasAlt: false, start: 0 }];
  let unbounded = 0;
  let inClass = false;
  let classStart = 0;
  /** Where the last unbounded repetition ended: another one starting there overlaps it (\\d*\\d*). */
  let lastUnboundedEnd = -1;
  let lastUnboundedAtom = '';
  /** The quantifier after an atom [atomStart, i]; a problem, or null. */
  const quantified = (atomStart: number, i: number, inner: Frame | null): PatternProblem | null => {
    const q = quantifierAt(pattern, i + 1);
    if (!q.repeats) return null;
    if (inner && (inner.hasRepeat || inner.hasAlt))
      return problem(
        '重复的分组内不能再有重复（* + {n,}）或分支 |，否则可能回溯失控；请改写，例如 (ab)+ 而非 (a+b)+',
        'a repeated group may hold no other repetition (* + {n,}) nor an alternative |: such patterns can backtrack without end; rewrite it, e.g. (ab)+ rather than (a+b)+',
      );
    stack[stack.length - 1]!.hasRepeat = true;
    if (q.unbounded) {
      const atom = pattern.slice(atomStart, i + 1);
      if (
        atomStart === lastUnboundedEnd &&
        (atom === lastUnboundedAtom || atom === '.' || lastUnboundedAtom === '.')
      )
        return problem(
          '两个不限次数的重复不能紧挨着（如 \\d*\\d*），请合并为一个',
          'two unbounded repetitions may not follow each other directly (as in \\d*\\d*): merge them',
        );
      unbounded++;
      lastUnboundedEnd = i + 1 + q.length;
      lastUnboundedAtom = atom;
    }
    return null;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(n) || n === 'k'))
        return problem(
          '正则表达式不能使用反向引用（\\1、\\k<名称>）',
          'the pattern may not use back-references (\\1, \\k<name>)',
        );
      i++;
      if (inClass) continue;
      const p = quantified(i - 1, i, null);
      if (p) return p;
      i += quantifierAt(pattern, i + 1).length;
      continue;
    }
    if (inClass) {
      if (c === ']') {
        inClass = false;
        const p = quantified(classStart, i, null);
        if (p) return p;
        i += quantifierAt(pattern, i + 1).length;
      }
      continue;
    }
    if (c === '[') {
      inClass = true;
      classStart = i;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i))
        return problem(
          '正则表达式不能使用后行断言 (?<= (?<!',
          'the pattern may not use lookbehind (?<= (?<!',
        );
      stack.push({ hasRepeat: false, hasAlt: false, start: i });
      continue;
    }
    if (c === '|') {
      stack[stack.length - 1]!.hasAlt = true;
      continue;
    }
    if (c === ')') {
      const inner = stack.pop();
      if (!inner || !stack.length) return problem('括号不成对', 'unbalanced parentheses');
      const p = quantified(inner.start, i, inner);
      if (p) return p;
      // A group that repeats inside makes its parent hold a repetition.
      if (inner.hasRepeat) stack[stack.length - 1]!.hasRepeat = true;
      i += quantifierAt(pattern, i + 1).length;
      continue;
    }
    // A plain atom (a character or the dot): its quantifier.
    const p = quantified(i, i, null);
    if (p) return p;
    i += quantifierAt(pattern, i + 1).length;
  }
  if (inClass) return problem('方括号不成对', 'unbalanced brackets');
  if (unbounded > 6)
    return problem(
      '正则表达式中不限次数的重复（* + {n,}）最多 6 处',
      'the pattern may hold at most 6 unbounded repetitions (* + {n,})',
    );
  if (re.test(''))
    return problem(
      '正则表达式会匹配空文本，请至少要求一个字符',
      'the pattern matches the empty text; require at least one character',
    );
  // Polynomial backtracking that the shapes above let through shows on long runs of one kind of
  // character: a pattern slower than PROBE_MS on any such sentence of SENTENCE_MAX is refused.
  for (const unit of PROBE_UNITS) {
    // Lengths doubling up to 300: a pattern whose time grows fast is refused before the long run.
    let prev = 0;
    for (const n of PROBE_LENGTHS) {
      const probe = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
      const t = performance.now();
      for (const _ of probe.matchAll(new RegExp(pattern, 'g')));
      const ms = performance.now() - t;
      const next = prev > 0.05 ? ms * (ms / prev) : ms * 2;
      if (ms > PROBE_MS || (n < 300 && next > PROBE_MS * 4))
        return problem(
          `正则表达式在重复字符“${unit}”的句子上太慢，请减少可重叠的重复`,
          `the pattern is too slow on a sentence repeating “${unit}”; reduce overlapping repetitions`,
        );
      prev = ms;
    }
  }
  const named = new Set([...pattern.matchAll(/\(\?<([A-Za-z][A-Za-z0-9_]*)>/g)].map((m) => m[1]!));
  for (const g of opts.groups ?? [])
    if (!named.has(g))
      return problem(`正则表达式中没有命名分组 (?<${g}>…)`, `the pattern has no named group (?<${g}>…)`);
  return null;
}

const PROBE_MS = 50;
const PROBE_UNITS = ['1', 'a', 'A', '中', ' ', '1.', '1 ', 'a1', '，'];
const PROBE_LENGTHS = [10, 20, 40, 80, 160, 300];

/** The quantifier starting at i: its length, whether it repeats (more than once) and without bound. */
function quantifierAt(p: string, i: number) {
  const c = p[i];
  let length = 0;
  let repeats = false;
  let unbounded = false;
  if (c === '*' || c === '+') {
    length = 1;
    repeats = true;
    unbounded = true;
  } else if (c === '?') length = 1;
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
    if (m) {
      length = m[0].length;
      const hi = m[2] ? (m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY) : Number(m[1]);
      repeats = hi > 1;
      unbounded = hi === Number.POSITIVE_INFINITY;
    }
  }
  if (length && (p[i + length] === '?' || p[i + length] === '+')) length++;
  return { length, repeats, unbounded };
}
