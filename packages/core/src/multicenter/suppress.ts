/**
 * Small-cell suppression of pooled multi-center results (server: multicenter/topics.ts,
 * screen: pages/multi-center). A count of another center between 1 and `min - 1` is hidden
 * ("< min"); so that it cannot be worked out by subtraction, further cells are hidden
 * ("complementary") until no equation the reader can write has exactly one hidden cell:
 *
 * - per center and variable: cases = n + missing;
 * - per column (cases, n of a variable, missing of a variable): total = own center + other centers.
 *   The reader knows its own center's numbers, so only other centers' cells and the total count
 *   as unknowns; the complementary cell is the smallest non-zero cell of another center, or the
 *   total when there is none.
 *
 * This is the usual "at least two hidden cells in every row and column" rule; it does not defend
 * against differencing over time (comparing the table before and after one more case).
 */
export type HiddenReason = 'small' | 'complementary';

/** A pooled count as answered: the number, or why it is hidden. */
export type PooledCount = number | { hidden: HiddenReason };

/** A pooled variable as the lead reads it: counts (or why hidden) and, for numbers, mean and SD when n is shown. */
export interface PooledVariable {
  key: string;
  label: string;
  n: PooledCount;
  missing: PooledCount;
  mean: number | null;
  sd: number | null;
}

/** The pooled summary of one center or of all: cases and each variable. */
export interface PooledSummary {
  cases: PooledCount;
  variables: PooledVariable[];
}

export interface CenterCounts {
  /** The reader's own center: never hidden (it sees its cases anyway). */
  own: boolean;
  cases: number;
  /** Per variable key: values present (n) and missing. */
  variables: Record<string, { n: number; missing: number }>;
}

export interface CountMask {
  cases: HiddenReason | null;
  n: Record<string, HiddenReason | null>;
  missing: Record<string, HiddenReason | null>;
}

/** True for a count that must not be shown on its own: 1 .. min-1. */
export const isSmall = (x: number, min: number) => x > 0 && x < min;

const emptyMask = (keys: readonly string[]): CountMask => ({
  cases: null,
  n: Object.fromEntries(keys.map((k) => [k, null])),
  missing: Object.fromEntries(keys.map((k) => [k, null])),
});

/**
 * Which cells of the other centers and of the total to hide. `centers` are the centers in the
 * table (the reader's own among them when it takes part); the total is their sum.
 */
export function suppressionMasks(
  centers: readonly CenterCounts[],
  keys: readonly string[],
  min: number,
): { centers: CountMask[]; total: CountMask } {
  const masks = centers.map(() => emptyMask(keys));
  const total = emptyMask(keys);
  const others = centers.map((c, i) => ({ c, i })).filter((x) => !x.c.own);
  // Only the reader's own data in the table: nothing of another center to protect.
  if (!others.length) return { centers: masks, total };

  const sum = (f: (c: CenterCounts) => number) => centers.reduce((s, c) => s + f(c), 0);
  const totals: CenterCounts = {
    own: false,
    cases: sum((c) => c.cases),
    variables: Object.fromEntries(
      keys.map((k) => [
        k,
        { n: sum((c) => c.variables[k]?.n ?? 0), missing: sum((c) => c.variables[k]?.missing ?? 0) },
      ]),
    ),
  };
  // Entities whose cells the reader does not know: other centers and the total.
  const entities = [...others.map((x) => ({ c: x.c, m: masks[x.i]! })), { c: totals, m: total }];

  type Col = {
    get: (c: CenterCounts) => number;
    hidden: (m: CountMask) => boolean;
    hide: (m: CountMask, r: HiddenReason) => void;
  };
  const cols: Col[] = [
    {
      get: (c) => c.cases,
      hidden: (m) => m.cases !== null,
      hide: (m, r) => {
        m.cases ??= r;
      },
    },
    ...keys.flatMap((k): Col[] => [
      {
        get: (c) => c.variables[k]?.n ?? 0,
        hidden: (m) => m.n[k] !== null,
        hide: (m, r) => {
          m.n[k] ??= r;
        },
      },
      {
        get: (c) => c.variables[k]?.missing ?? 0,
        hidden: (m) => m.missing[k] !== null,
        hide: (m, r) => {
          m.missing[k] ??= r;
        },
      },
    ]),
  ];

  // Primary suppression: small counts; a center (or total) with few cases hides all its cells.
  // A small total counts only where other centers contribute to it (else it is the reader's own).
  const fromOthers = (col: Col) => others.reduce((s, x) => s + col.get(x.c), 0);
  for (const { c, m } of entities) {
    const small = (col: Col) => isSmall(col.get(c), min) && (c !== totals || fromOthers(col) > 0);
    for (const col of cols) if (small(col)) col.hide(m, 'small');
    if (small(cols[0]!)) for (const col of cols) if (col.get(c) > 0) col.hide(m, 'complementary');
  }

  // Complementary suppression until no equation has exactly one hidden cell.
  for (let changed = true; changed; ) {
    changed = false;
    for (const { c, m } of entities) {
      if (c.cases === 0) continue;
      for (const k of keys) {
        const cells = [m.cases !== null, m.n[k] !== null, m.missing[k] !== null];
        if (cells.filter(Boolean).length !== 1) continue;
        if (m.n[k] === null) m.n[k] = 'complementary';
        else m.missing[k] = 'complementary';
        changed = true;
      }
    }
    for (const col of cols) {
      const hidden = entities.filter((e) => col.hidden(e.m));
      if (hidden.length !== 1) continue;
      const candidates = entities
        .slice(0, -1)
        .filter((e) => !col.hidden(e.m) && col.get(e.c) > 0)
        .sort((a, b) => col.get(a.c) - col.get(b.c));
      const last = entities[entities.length - 1]!;
      const pick = candidates[0] ?? (col.hidden(last.m) ? undefined : last);
      // No other non-zero cell and the total already hidden: every other center's cell is 0 here.
      if (!pick) continue;
      col.hide(pick.m, 'complementary');
      changed = true;
    }
  }
  return { centers: masks, total };
}

/** The count as answered under a mask entry. */
export const maskedCount = (x: number, reason: HiddenReason | null): PooledCount =>
  reason ? { hidden: reason } : x;
