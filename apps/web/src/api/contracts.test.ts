import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web takes the shapes the server answers from @crdp/core (ARCHITECTURE.md, "Contracts live
 * in `@crdp/core`"): a call's result type names a contract type, never an object type written
 * on the spot, and no file keeps its own copy of the page shape. A hand-written shape drifts
 * from the server's (the data-QC task status lost `cancelled` that way).
 */
const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('API result types come from @crdp/core', () => {
  const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

  it('reads the web sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path.endsWith('api.ts') && f.text.includes('rest<'))).toBe(true);
  });

  it('no call declares its result as an object type of its own', () => {
    const inline = files.flatMap((f) =>
      f.text
        .split('\n')
        .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
        .filter(({ line }) => /\brest<\s*(\{|$)/.test(line) || /\brest<\s*Page</.test(line))
        .map(({ at, line }) => `${at}  ${line.trim()}`),
    );
    expect(inline).toEqual([]);
  });

  it('no file declares its own page type', () => {
    const own = files
      .filter((f) => /^\s*(export\s+)?(type|interface)\s+Page\s*</m.test(f.text))
      .map((f) => f.path);
    expect(own).toEqual([]);
  });
});

describe('waiting on background work', () => {
  it('goes through the one job-poll hook (useJobPoll / pollInterval), not a hand-made refetch timer', () => {
    const own = sources(SRC)
      .map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }))
      .filter((f) => /refetchInterval:\s*\(/.test(f.text) && !f.text.includes('pollInterval('))
      .map((f) => f.path);
    expect(own).toEqual([]);
  });
});
