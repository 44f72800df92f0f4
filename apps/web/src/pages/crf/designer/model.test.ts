import type { Form } from '@crdp/crf';
import { describe, expect, it } from 'vitest';
import { addItem, addPage, allItems, moveItem, newItem, removeItem, replaceItem } from './model';

const base = (): Form => ({
  pages: [{ key: 'page1', title: '一', items: [{ key: 'q1', type: 'textQuestion', title: 'A' }] }],
  showRules: [{ indicatorName: 'q1', condition: 'equals', indicatorVal: '1', selectItems: ['q1'] }],
});

describe('designer operations on a form', () => {
  it('gives new items and pages the first free key and never changes the form it was given', () => {
    const form = base();
    const frozen = JSON.stringify(form);
    const item = newItem(form, 'radio', '性别');
    expect(item.key).toBe('q2');
    expect(item.options?.length).toBe(2);
    const next = addPage(addItem(form, 0, item), '二');
    expect(next.pages[1]?.key).toBe('page2');
    expect(allItems(next).map((i) => i.key)).toEqual(['q1', 'q2']);
    expect(JSON.stringify(form)).toBe(frozen);
  });

  it('moves and removes items within a page, ignoring moves past either end', () => {
    let form = addItem(base(), 0, newItem(base(), 'checkbox', 'B'));
    form = moveItem(form, 0, 1, 0);
    expect(allItems(form).map((i) => i.key)).toEqual(['q2', 'q1']);
    expect(moveItem(form, 0, 0, -1)).toBe(form);
    expect(allItems(removeItem(form, 0, 0)).map((i) => i.key)).toEqual(['q1']);
  });

  it('renaming an item carries the new key into the show rules that name it', () => {
    const form = replaceItem(base(), 'q1', { key: 'weight', type: 'textQuestion', title: 'A' });
    expect(form.showRules).toEqual([
      { indicatorName: 'weight', condition: 'equals', indicatorVal: '1', selectItems: ['weight'] },
    ]);
  });

  it('gap-filling and matrix items start with a blank, rows and columns', () => {
    expect(newItem(base(), 'gapFilling', '血压').title).toBe('血压 ___');
    const m = newItem(base(), 'matrix', '症状');
    expect([m.rows?.length, m.columns?.length, m.forM]).toEqual([2, 2, 'radio']);
  });
});
