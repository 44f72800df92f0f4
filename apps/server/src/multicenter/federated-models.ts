import { logisticRegression } from '@crdp/stats';

/**
 * The models of spec 000 §3's federated-learning map, run on pooled rows (pure: the unit tests
 * call them). Each answers aggregates only: coefficients, bins with counts, metrics.
 */

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const r4 = (x: number) => Number(x.toFixed(4));

/** Area under the ROC curve by the rank-sum (Mann-Whitney) form, ties counted half. */
export function auc(y: number[], p: number[]): number | null {
  const pos = y.filter((v) => v === 1).length;
  const neg = y.length - pos;
  if (!pos || !neg) return null;
  const order = p.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const rank = new Array<number>(p.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) rank[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const sumPos = y.reduce((s, v, i) => s + (v === 1 ? rank[i]! : 0), 0);
  return r4((sumPos - (pos * (pos + 1)) / 2) / (pos * neg));
}

/** Kolmogorov-Smirnov: the largest gap between the cumulative shares of events and non-events. */
export function ks(y: number[], p: number[]): number | null {
  const pos = y.filter((v) => v === 1).length;
  const neg = y.length - pos;
  if (!pos || !neg) return null;
  const order = p.map((v, i) => [v, y[i]!] as const).sort((a, b) => b[0] - a[0]);
  let tp = 0;
  let fp = 0;
  let best = 0;
  for (let i = 0; i < order.length; i++) {
    if (order[i]![1] === 1) tp++;
    else fp++;
    if (i + 1 < order.length && order[i + 1]![0] === order[i]![0]) continue;
    best = Math.max(best, Math.abs(tp / pos - fp / neg));
  }
  return r4(best);
}

/** The classification metrics at a 0.5 threshold, AUC, KS and log loss. */
export function metricsOf(y: number[], p: number[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let right = 0;
  let loss = 0;
  y.forEach((v, i) => {
    const hat = p[i]! >= 0.5 ? 1 : 0;
    if (hat === v) right++;
    if (hat === 1 && v === 1) tp++;
    if (hat === 1 && v === 0) fp++;
    if (hat === 0 && v === 1) fn++;
    const q = Math.min(Math.max(p[i]!, 1e-12), 1 - 1e-12);
    loss -= v === 1 ? Math.log(q) : Math.log(1 - q);
  });
  return {
    auc: auc(y, p),
    ks: ks(y, p),
    accuracy: y.length ? r4(right / y.length) : null,
    precision: tp + fp ? r4(tp / (tp + fp)) : null,
    recall: tp + fn ? r4(tp / (tp + fn)) : null,
    logLoss: y.length ? r4(loss / y.length) : null,
  };
}

/** Logistic regression (the research methods' own IRLS fit) and each row's predicted probability. */
export function fitLogistic(y: number[], x: number[][], names: string[]) {
  const fit = logisticRegression(y, x, names);
  const beta = fit.coefficients.map((c) => c.estimate);
  const p = x.map((row) => sigmoid(beta[0]! + row.reduce((s, v, j) => s + v * beta[j + 1]!, 0)));
  return { fit, p };
}

/**
 * Gradient boosting with depth-one trees (stumps) on the logistic loss: each round fits the
 * residuals with the best split of one predictor at one of its deciles. Answers each row's
 * probability and each predictor's share of the loss reduction (its importance).
 */
export function boostStumps(y: number[], x: number[][], rounds: number, rate = 0.3) {
  const n = y.length;
  const k = x[0]?.length ?? 0;
  const base = Math.log(
    (y.filter((v) => v === 1).length + 0.5) / (n - y.filter((v) => v === 1).length + 0.5),
  );
  const f = new Array<number>(n).fill(base);
  const gain = new Array<number>(k).fill(0);
  const cuts = Array.from({ length: k }, (_, j) => {
    const s = x.map((r) => r[j]!).sort((a, b) => a - b);
    return [...new Set([1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => s[Math.floor((d / 10) * (n - 1))]!))];
  });
  for (let r = 0; r < rounds; r++) {
    const g = f.map((v, i) => y[i]! - sigmoid(v));
    let best = { j: -1, cut: 0, left: 0, right: 0, score: 0 };
    for (let j = 0; j < k; j++)
      for (const cut of cuts[j]!) {
        let sl = 0;
        let nl = 0;
        let sr = 0;
        let nr = 0;
        for (let i = 0; i < n; i++)
          if (x[i]![j]! <= cut) {
            sl += g[i]!;
            nl++;
          } else {
            sr += g[i]!;
            nr++;
          }
        if (!nl || !nr) continue;
        const score = (sl * sl) / nl + (sr * sr) / nr;
        if (score > best.score) best = { j, cut, left: sl / nl, right: sr / nr, score };
      }
    if (best.j < 0) break;
    gain[best.j]! += best.score;
    for (let i = 0; i < n; i++) f[i]! += rate * 4 * (x[i]![best.j]! <= best.cut ? best.left : best.right);
  }
  const total = gain.reduce((s, v) => s + v, 0);
  return { p: f.map(sigmoid), importance: gain.map((v) => (total ? r4(v / total) : 0)) };
}

/**
 * Quantile bins of one predictor against a 0/1 outcome with weight of evidence and information
 * value (0.5 added to empty cells). The outer edges are open: a bin never shows one patient's
 * extreme value.
 */
export function binning(y: number[], v: number[], bins: number) {
  const sorted = [...v].sort((a, b) => a - b);
  const edges = [
    ...new Set(
      Array.from({ length: bins - 1 }, (_, i) => sorted[Math.floor(((i + 1) / bins) * (sorted.length - 1))]!),
    ),
  ];
  const events = y.filter((x) => x === 1).length;
  const nonEvents = y.length - events;
  const rows = [...edges, Number.POSITIVE_INFINITY].map((hi, i) => {
    const lo = i === 0 ? Number.NEGATIVE_INFINITY : edges[i - 1]!;
    const inBin = v.map((x, k) => [x, y[k]!] as const).filter(([x]) => x > lo && x <= hi);
    const e = inBin.filter(([, t]) => t === 1).length;
    const ne = inBin.length - e;
    const pe = (e + 0.5) / (events + 0.5);
    const pn = (ne + 0.5) / (nonEvents + 0.5);
    const woe = Math.log(pe / pn);
    return {
      lower: Number.isFinite(lo) ? lo : null,
      upper: Number.isFinite(hi) ? hi : null,
      count: inBin.length,
      events: e,
      woe: r4(woe),
      iv: (pe - pn) * woe,
    };
  });
  return { bins: rows.map((b) => ({ ...b, iv: r4(b.iv) })), iv: r4(rows.reduce((s, b) => s + b.iv, 0)) };
}
