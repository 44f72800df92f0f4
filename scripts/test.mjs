#!/usr/bin/env node
// `npm test`: the unit and API tests (vitest), then the E2E suite (Playwright, system Chromium)
// against the built app served by the real server. Writes .test-output/summary.json and ends
// with the line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.test-output');
mkdirSync(out, { recursive: true });
const args = new Set(process.argv.slice(2));
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(cmd, argv, env = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

if (!args.has('--e2e-only')) {
  const file = path.join(out, 'vitest.json');
  const only = args.has('--api-only') ? ['apps/server'] : [];
  const code = run('npx', [
    'vitest',
    'run',
    ...only,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  const v = readJson(file);
  if (v) {
    totals.passed += v.numPassedTests;
    totals.failed += v.numFailedTests;
    totals.skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  }
  if (!v || (code !== 0 && v.numFailedTests === 0)) totals.failed += 1; // a crash outside any test still fails
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  const st = statSync(dir);
  if (!st.isDirectory()) return st.mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

if (!args.has('--unit-only')) {
  const chromium = findChromium();
  if (!chromium) {
    console.log(
      "E2E skipped: no Chromium found (install Debian's chromium, or set CHROMIUM_PATH, to run it).",
    );
  } else {
    const built = [path.join(root, 'apps/web/dist/index.html'), path.join(root, 'apps/server/dist/main.js')];
    const builtAt = Math.min(...built.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
    const sources = [
      'apps/web/src',
      'apps/web/index.html',
      'apps/server/src',
      'apps/server/drizzle',
      'packages',
    ].map((d) => newestMtime(path.join(root, d)));
    if (builtAt === 0 || Math.max(...sources) > builtAt) {
      console.log('Building the app for the E2E suite…');
      if (run('npm', ['run', 'build']) !== 0) {
        totals.failed += 1;
        console.log('The build failed; E2E not run.');
      }
    }
    const file = path.join(out, 'playwright.json');
    const code = run(
      'npx',
      ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      {
        CHROMIUM_PATH: chromium,
        PLAYWRIGHT_JSON_OUTPUT_NAME: file,
      },
    );
    const p = readJson(file);
    if (p?.stats) {
      totals.passed += p.stats.expected + (p.stats.flaky ?? 0);
      totals.failed += p.stats.unexpected;
      totals.skipped += p.stats.skipped;
    }
    if (!p?.stats || (code !== 0 && p.stats.unexpected === 0)) totals.failed += 1;
  }
}

writeFileSync(path.join(out, 'summary.json'), JSON.stringify(totals));
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(totals.failed > 0 ? 1 : 0);
