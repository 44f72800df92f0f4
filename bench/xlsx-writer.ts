/**
 * Issue 22 "Also": keep the hand-written XLSX sheet writer only where the numbers say so.
 * Ours (`apps/server/src/files/xlsx.ts`: sheet XML written row batch by row batch into yazl's
 * streamed ZIP) against exceljs 4.4.0's streaming `WorkbookWriter` (inline strings, no shared
 * strings table, no styles: the same kind of file), both writing BENCH_ROWS (100,000) rows × 20
 * columns (numbers, dates as text, Chinese and Latin strings) into a sink that counts bytes, in
 * the same run, alternating rounds. Prints time, bytes, the heap growth and `ratio=<ours/exceljs>`
 * (median time).
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type Cell, streamXlsx } from '../apps/server/src/files/xlsx.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 1000;
const WORDS = ['肝硬化', '慢性乙型病毒性肝炎', '原发性高血压', 'HBsAg 阳性', '腹水', 'ALT 升高', '2型糖尿病'];

function row(i: number): Cell[] {
  const out: Cell[] = [];
  for (let c = 0; c < 20; c++) {
    if (c % 4 === 0) out.push(i * 20 + c);
    else if (c % 4 === 1) out.push(Math.round(((i * 7919 + c) % 10000) / 7) / 10);
    else if (c % 4 === 2)
      out.push(`2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`);
    else out.push(`${WORDS[(i + c) % WORDS.length]} ${i}`);
  }
  return out;
}

function* batches() {
  for (let i = 0; i < ROWS; i += BATCH) {
    const b: Cell[][] = [];
    for (let j = i; j < Math.min(ROWS, i + BATCH); j++) b.push(row(j));
    yield b;
  }
}

class Counter extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.bytes += chunk.length;
    cb();
  }
}

async function ours() {
  let bytes = 0;
  for await (const chunk of streamXlsx([{ name: '数据', rows: batches() }])) bytes += chunk.length;
  return bytes;
}

async function exceljs() {
  const sink = new Counter();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useSharedStrings: false,
    useStyles: false,
  });
  const ws = wb.addWorksheet('数据');
  for (const b of batches()) for (const r of b) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
  return sink.bytes;
}

async function run(fn: () => Promise<number>) {
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 20);
  const t = performance.now();
  const bytes = await fn();
  const ms = performance.now() - t;
  clearInterval(timer);
  return { ms, bytes, heapMb: (peak - heap0) / 1e6 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const a: Array<Awaited<ReturnType<typeof run>>> = [];
const b: Array<Awaited<ReturnType<typeof run>>> = [];
await run(ours);
await run(exceljs);
for (let i = 0; i < ROUNDS; i++) {
  a.push(await run(ours));
  b.push(await run(exceljs));
}
const show = (xs: typeof a) =>
  `${median(xs.map((x) => x.ms)).toFixed(0)} ms, ${(xs[0]!.bytes / 1e6).toFixed(1)} MB, heap +${Math.max(...xs.map((x) => x.heapMb)).toFixed(0)} MB`;
console.log(`${ROWS} rows × 20 columns, median of ${ROUNDS}`);
console.log(`ours (xlsx.ts + yazl):     ${show(a)}`);
console.log(`exceljs WorkbookWriter:    ${show(b)}`);
console.log(`xlsx-writer ratio=${(median(a.map((x) => x.ms)) / median(b.map((x) => x.ms))).toFixed(2)}`);
