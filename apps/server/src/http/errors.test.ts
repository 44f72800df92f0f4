import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatMessage } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { type Bilingual, notFound, valuesIn } from './errors.js';

const SRC = join(import.meta.dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.includes('.test.') ? [p] : [];
  });

/** A 404 names what is missing in words, never by a code a person cannot read ("diagnosis C22" lesson). */
describe('notFound', () => {
  it('words the entity in the reader’s language', () => {
    const e = notFound('disease');
    const zh = formatMessage(e.key, 'zh-CN', valuesIn(e.values, 'zh-CN'));
    const en = formatMessage(e.key, 'en-US', valuesIn(e.values, 'en-US'));
    expect(zh).toBe('病种不存在');
    expect(en).toBe('Disease not found');
  });

  it('has words for every entity the server names in a 404', () => {
    const named = new Set<string>();
    for (const file of sources(SRC))
      for (const m of readFileSync(file, 'utf8').matchAll(/notFound\('([^']+)'\)/g)) named.add(m[1]!);
    expect(named.size).toBeGreaterThan(20);
    const raw = [...named].filter((entity) => typeof notFound(entity).values.entity !== 'object');
    expect(raw).toEqual([]);
    for (const entity of named) {
      const words = notFound(entity).values.entity as Bilingual;
      expect(words['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
