#!/usr/bin/env node
/**
 * Sorts what the workplace's `duplicates` command lists into what may stay and what is to look at
 * (issue 23: "duplicates lists no logic pairs, data tables aside"). It runs the command over each
 * part of the repository, then puts each pair it lists in one of:
 *
 * - boilerplate: the command's own verdict (thin lines, or a shape common across a folder);
 * - data: both places are in a data or declaration file (messages, labels, contracts, the route
 *   table, the database schema and migrations, catalogues, seed data, test data);
 * - imports: both places lie in their file's import header (a multi-line `import { … }` list,
 *   whose names the command does not pass over as it does single import lines);
 * - reviewed: the two files are named in docs/duplicates-reviewed.tsv with the reason the pair
 *   stays (two declarations of the same syntax, a test's own data, …);
 * - to look at: everything else. The script lists these and exits 1 while there are any.
 *
 * Usage: `node scripts/duplicates-triage.mjs [--list]` (--list prints every classified row too).
 * It needs the `duplicates` command on the PATH (the workplace's tool library); it writes only
 * below the system's temporary folder and changes nothing in the repository.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const listAll = process.argv.includes('--list');

/** Files whose repeated lines are data or declarations, by path (relative to the scanned part). */
const DATA = [
  /(^|\/)i18n\.ts$/,
  /-i18n\.ts$/,
  /(^|\/)messages\.ts$/,
  /(^|\/)labels\//,
  /(^|\/)contracts(\.ts$|\/)/,
  /(^|\/)routes\/table\.ts$/,
  /(^|\/)routes(\.ts$|\/)/,
  /-routes\.ts$/,
  /(^|\/)routes-[\w-]+\.ts$/,
  /(^|\/)envelope\.ts$/,
  /(^|\/)db\/schema\//,
  /(^|\/)drizzle\/.*\.sql$/,
  /(^|\/)catalogue\.ts$/,
  /(^|\/)seed\//,
  /(^|\/)builtins\.ts$/,
  /(^|\/)code-tables\.ts$/,
  /(^|\/)testdata\//,
  /(^|\/)types\.ts$/,
  /(^|\/)subtypes\.ts$/,
];

/** The parts scanned, each as the command's --repo folder, or a copy of some of a folder's files. */
const PARTS = [
  { name: 'web', repo: 'apps/web' },
  { name: 'packages', repo: 'packages' },
  { name: 'e2e', repo: 'e2e' },
  { name: 'bench', repo: 'bench' },
  // The server is too large for one listing of 200 rows: its services, its tests and its data
  // files are scanned apart (a pair across two of these is not seen).
  { name: 'server services', copyOf: 'apps/server', keep: (f) => !isTest(f) && !isData(f) },
  { name: 'server tests', copyOf: 'apps/server', keep: (f) => isTest(f) },
  { name: 'server data', copyOf: 'apps/server', keep: (f) => !isTest(f) && isData(f) },
];

function isTest(f) {
  return /\.test\.tsx?$/.test(f) || /(^|\/)test\//.test(f);
}
function isData(f) {
  return DATA.some((r) => r.test(f));
}

/** The reviewed file pairs: `a<TAB>b<TAB>category<TAB>reason`, paths from the repository's root. */
function reviewed() {
  const file = path.join(root, 'docs/duplicates-reviewed.tsv');
  const pairs = new Map();
  if (!existsSync(file)) return pairs;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [a, b, category, reason] = line.split('\t');
    if (!a || !b || !category || !reason)
      throw new Error(`docs/duplicates-reviewed.tsv: a line without four columns: ${line}`);
    pairs.set(pairKey(a, b), { category, reason });
  }
  return pairs;
}
const pairKey = (a, b) => [a, b].sort().join(' ~ ');

/** The last line of a file's leading block of imports (0 when it has none). */
const headers = new Map();
function importHeaderEnd(dir, file) {
  const full = path.join(dir, file);
  if (headers.has(full)) return headers.get(full);
  let end = 0;
  const lines = existsSync(full) ? readFileSync(full, 'utf8').split('\n') : [];
  let inImport = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (inImport) {
      if (/\bfrom\s+['"][^'"]+['"];?$/.test(l) || /^['"][^'"]+['"];?$/.test(l)) {
        inImport = false;
        end = i + 1;
      }
      continue;
    }
    if (l.startsWith('import ')) {
      if (/\bfrom\s+['"][^'"]+['"];?$/.test(l) || /^import\s+['"]/.test(l)) end = i + 1;
      else inImport = true;
      continue;
    }
    if (l === '' || l.startsWith('//') || l.startsWith('/*') || l.startsWith('*')) continue;
    break;
  }
  // The blank lines and comments after the imports (the command passes over them, so a run of
  // import names may end past them).
  while (end < lines.length && /^(|\/\/.*|\/\*.*|\*.*)$/.test(lines[end].trim())) end++;
  headers.set(full, end);
  return end;
}

const ROW = /^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)(.*)$/;

function scan(part) {
  let dir;
  let tmp;
  if (part.repo) dir = path.join(root, part.repo);
  else {
    tmp = mkdtempSync(path.join(tmpdir(), 'crdp-dups-'));
    const base = path.join(root, part.copyOf);
    const files = execFileSync('git', ['ls-files'], { cwd: base, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && part.keep(f));
    for (const f of files) cpSync(path.join(base, f), path.join(tmp, f));
    dir = tmp;
  }
  const args = ['--most', '200', '--seconds', '300'];
  const out = execFileSync('duplicates', part.repo ? ['--repo', dir, ...args] : args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const rows = out.split('\n').filter((l) => ROW.test(l));
  const total = Number(/^(\d+) pairs/.exec(out)?.[1] ?? rows.length);
  const shownBoiler = rows.filter((r) => / boilerplate\b/.test(r)).length;
  const boilerTotal = Number(/(\d+) of those marked boilerplate/.exec(out)?.[1] ?? shownBoiler);
  return { dir, tmp, rows, total, boilerTotal, out };
}

const review = reviewed();
const used = new Set();
let toLook = 0;
const summary = [];
for (const part of PARTS) {
  const { dir, tmp, rows, total, boilerTotal, out } = scan(part);
  const base = part.repo ?? part.copyOf;
  const counts = { boilerplate: boilerTotal, data: 0, imports: 0, reviewed: 0, 'to look at': 0 };
  const unseen = total - rows.length;
  const lines = [];
  for (const r of rows) {
    const [, a, , a2, b, , b2, rest] = ROW.exec(r);
    let category;
    if (/ boilerplate\b/.test(rest))
      continue; // counted from the header
    else if (isData(a) && isData(b)) category = 'data';
    else if (Number(a2) <= importHeaderEnd(dir, a) && Number(b2) <= importHeaderEnd(dir, b))
      category = 'imports';
    else if (review.has(pairKey(`${base}/${a}`, `${base}/${b}`))) {
      category = 'reviewed';
      used.add(pairKey(`${base}/${a}`, `${base}/${b}`));
    } else category = 'to look at';
    counts[category]++;
    if (category === 'to look at' || listAll) lines.push(`  [${category}] ${base}: ${r}`);
  }
  // Rows past the 200 shown are boilerplate (the command lists those last) only when all the
  // pairs that are not are among the shown; otherwise some were not classified.
  const notBoiler = total - boilerTotal;
  const shownNotBoiler = rows.filter((r) => !/ boilerplate\b/.test(r)).length;
  if (shownNotBoiler < notBoiler && part.name !== 'server data')
    lines.push(
      `  (${notBoiler - shownNotBoiler} pairs that are not boilerplate were past the 200 rows shown)`,
    );
  if (part.name === 'server data') {
    counts.data += notBoiler - counts.data - counts.imports - counts.reviewed - counts['to look at'];
    lines.length = 0;
  } else toLook += counts['to look at'] + Math.max(0, notBoiler - shownNotBoiler);
  summary.push(
    `${part.name}: ${total} pairs — ${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}${unseen && part.name !== 'server data' ? ` (${unseen} past the rows shown)` : ''}`,
  );
  if (lines.length) summary.push(...lines);
  if (/^incomplete:/m.test(out))
    summary.push(`  ${out.split('\n').find((l) => l.startsWith('incomplete:'))}`);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
for (const k of review.keys())
  if (!used.has(k)) summary.push(`reviewed pair no longer listed (remove it): ${k}`);
console.log(summary.join('\n'));
console.log(toLook ? `\n${toLook} pairs to look at` : '\nno pairs to look at');
process.exit(toLook ? 1 : 0);
