import { describe, expect, it } from 'vitest';
import { sampleForm } from './testdata/sample-form.js';
import type { Form } from './types.js';
import { answerItems, childrenOf, formItems, isItem, walkForm } from './walk.js';

const NESTED: Form = {
  pages: [
    {
      key: 'p1',
      items: [
        { key: 'intro', type: 'paragraph', title: 'Read me' },
        { key: 'a', type: 'textQuestion' },
        {
          key: 'g1',
          type: 'group',
          groups: [{ key: 'g2', panel: [{ key: 'b', type: 'radio', options: [{ code: 1, name: 'x' }] }] }],
          items: [{ key: 'c', type: 'textQuestion' }],
        },
      ],
    },
    { key: 'p2', table: [{ key: 'd', type: 'upload' }], items: [null as never, { key: 'e', type: 'score' }] },
  ],
};

describe('form walk', () => {
  it('visits every element depth first in document order, container fields in their order', () => {
    const seen: string[] = [];
    walkForm(NESTED, (e, at) => {
      seen.push(`${at.page}:${at.parents.map((p) => p.key).join('/')}:${e.key}:${at.path.join('.')}`);
    });
    expect(seen).toEqual([
      '0::intro:items.0',
      '0::a:items.1',
      '0::g1:items.2',
      '0:g1:g2:items.2.groups.0',
      '0:g1/g2:b:items.2.groups.0.panel.0',
      '0:g1:c:items.2.items.0',
      '1::d:table.0',
      '1::e:items.1',
    ]);
  });

  it('skips a container when the visitor says false', () => {
    const seen: string[] = [];
    walkForm(NESTED, (e) => {
      seen.push(String(e.key));
      return e.key !== 'g1';
    });
    expect(seen).toEqual(['intro', 'a', 'g1', 'd', 'e']);
  });

  it('lists items with their page and containers; answer items leave out paragraphs', () => {
    expect(formItems(NESTED).map((x) => [x.item.key, x.page, x.parents.map((p) => p.key)])).toEqual([
      ['intro', 0, []],
      ['a', 0, []],
      ['b', 0, ['g1', 'g2']],
      ['c', 0, ['g1']],
      ['d', 1, []],
      ['e', 1, []],
    ]);
    expect(answerItems(NESTED).map((x) => x.item.key)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(childrenOf(NESTED.pages[0]!.items![2]!).map((e) => e.key)).toEqual(['g2', 'c']);
    expect(isItem({ key: 'g', type: 'group' })).toBe(false);
  });

  it('finds every item of the sample form', () => {
    const keys = formItems(sampleForm()).map((x) => x.item.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(5);
  });
});
