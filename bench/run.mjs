#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ (files *.bench.ts, or a name given as argument).
// Each prints `ratio=<ours/reference>` against a reference measured in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, f)], {
    stdio: 'inherit',
    cwd: path.join(here, '..'),
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
