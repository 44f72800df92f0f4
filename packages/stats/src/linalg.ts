import { StatsError } from './errors.js';
/** Small dense linear algebra for regression: X'WX and its inverse (Gauss-Jordan, partial pivoting). */
export type Matrix = number[][];

export function invert(m: Matrix): Matrix {
  const n = m.length;
  const a = m.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    const scale = Math.max(...a.map((r) => Math.abs(r[col]!)), 1e-300);
    if (Math.abs(a[pivot]![col]!) < 1e-12 * scale) throw new StatsError('research.stats.collinear');
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    for (let j = 0; j < 2 * n; j++) a[col]![j]! /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]!;
      if (f === 0) continue;
      for (let j = 0; j < 2 * n; j++) a[r]![j]! -= f * a[col]![j]!;
    }
  }
  return a.map((row) => row.slice(n));
}

/** X' diag(w) X and X' diag(w) z for rows x_i. */
export function weightedNormal(x: Matrix, w: number[], z: number[]) {
  const p = x[0]!.length;
  const xtx: Matrix = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  const xtz = new Array<number>(p).fill(0);
  for (let i = 0; i < x.length; i++) {
    const row = x[i]!;
    const wi = w[i]!;
    for (let a = 0; a < p; a++) {
      xtz[a]! += row[a]! * wi * z[i]!;
      for (let b = a; b < p; b++) xtx[a]![b]! += row[a]! * wi * row[b]!;
    }
  }
  for (let a = 0; a < p; a++) for (let b = 0; b < a; b++) xtx[a]![b] = xtx[b]![a]!;
  return { xtx, xtz };
}

export const mulVec = (m: Matrix, v: number[]) => m.map((row) => row.reduce((s, x, j) => s + x * v[j]!, 0));
