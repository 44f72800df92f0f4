import { describe, expect, it } from 'vitest';
import { compiled } from './compile.js';
import type { FormItem } from './types.js';
import { itemValueKind } from './value-kind.js';

const item = (over: Partial<FormItem> & Pick<FormItem, 'type'>): FormItem => ({ key: 'q', ...over });
const options = [
  { name: '否', code: 0 },
  { name: '是', code: 1 },
];

describe('itemValueKind', () => {
  it.each<[string, FormItem, string]>([
    ['a numeric text question', item({ type: 'textQuestion', textType: 'number' }), 'number'],
    ['a digit input', item({ type: 'textQuestion', inputType: 'digit' }), 'number'],
    ['a date text question', item({ type: 'textQuestion', textType: 'date' }), 'date'],
    ['a plain text question', item({ type: 'textQuestion', textType: 'textarea' }), 'text'],
    ['a text question without a type', item({ type: 'textQuestion' }), 'text'],
    ['a gap filling', item({ type: 'gapFilling' }), 'text'],
    ['a single-choice radio', item({ type: 'radio', options }), 'choice'],
    ['a radio shown as a dropdown', item({ type: 'radio', typeQ: 'select', options }), 'choice'],
    ['a multiple-choice radio', item({ type: 'radio', typeQ: 'multi', options }), 'set'],
    ['a checkbox', item({ type: 'checkbox', options }), 'set'],
    ['an upload', item({ type: 'upload' }), 'set'],
    ['a score with options', item({ type: 'score', options }), 'choice'],
    ['a score without options', item({ type: 'score' }), 'number'],
    ['a paragraph', item({ type: 'paragraph' }), 'none'],
    ['a matrix', item({ type: 'matrix' }), 'none'],
    [
      'a calculated text question',
      item({ type: 'textQuestion', textType: 'text', fxTopicData: { func: 'sum', fields: ['a', 'b'] } }),
      'number',
    ],
    [
      'a calculation switched off (fxRadio 0) on a radio',
      item({ type: 'radio', options, fxTopicData: { func: 'sum', fields: ['a'] }, fxRadio: '0' }),
      'choice',
    ],
  ])('%s is %s', (_, it_, kind) => {
    expect(itemValueKind(it_)).toBe(kind);
  });

  it('is the kind the compiled form gives each item', () => {
    const items: FormItem[] = [
      item({ key: 'n', type: 'textQuestion', textType: 'number' }),
      item({ key: 'c', type: 'radio', options }),
      item({ key: 's', type: 'checkbox', options }),
      item({ key: 'd', type: 'textQuestion', textType: 'date' }),
    ];
    const c = compiled({ pages: [{ key: 'p1', items }] });
    const kinds = Object.fromEntries(c.nodes.filter((n) => n.item).map((n) => [n.key, n.valueKind]));
    expect(kinds).toEqual({ n: 'number', c: 'choice', s: 'set', d: 'date' });
    expect(c.nodes.find((n) => n.key === 's')!.asSet).toBe(true);
  });
});
