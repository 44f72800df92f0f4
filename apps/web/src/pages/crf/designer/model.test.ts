import { analyzeForm, type Form, parseForm } from '@crdp/crf';
import { describe, expect, it } from 'vitest';
import {
  addElement,
  addItem,
  addPage,
  allItems,
  elementsAt,
  findContainer,
  itemCount,
  itemRows,
  locateItem,
  moveElement,
  moveItem,
  moveItemTo,
  moveTargets,
  newGroup,
  newItem,
  parseFaultText,
  removeElement,
  removeItem,
  replaceItem,
  shiftElement,
  updateContainer,
} from './model';

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

  describe('groups (containers) on a page', () => {
    // Page: q1, group g1 [q2, q3], q4.
    const grouped = (): Form => {
      let form = base();
      const g = newGroup(form, '既往史');
      form = addElement(form, 0, g);
      form = addElement(form, 0, newItem(form, 'radio', 'B'), 'g1');
      form = addElement(form, 0, newItem(form, 'textQuestion', 'C'), 'g1');
      form = addElement(form, 0, newItem(form, 'textQuestion', 'D'));
      return form;
    };
    const outline = (form: Form) =>
      elementsAt(form, 0, null).map((e) =>
        e.type === 'group' ? { [e.key!]: elementsAt(form, 0, e.key!).map((c) => c.key) } : e.key,
      );

    it('adds a titled group with a fresh key and items inside it, which the engine accepts', () => {
      const form = grouped();
      expect(outline(form)).toEqual(['q1', { g1: ['q2', 'q3'] }, 'q4']);
      expect(findContainer(form, 0, 'g1')).toMatchObject({ type: 'group', title: '既往史' });
      expect(allItems(form).map((i) => i.key)).toEqual(['q1', 'q2', 'q3', 'q4']);
      // New keys look inside groups too: no duplicate with the items in g1.
      expect(newItem(form, 'textQuestion', 'E').key).toBe('q5');
      expect(newGroup(form, 'x').key).toBe('g2');
      expect(() => parseForm(form)).not.toThrow();
      // (base() carries a rule on q1 that shows q1 itself: a cycle, left out here.)
      expect(analyzeForm(parseForm({ ...form, showRules: [] }))).toEqual([]);
      expect(addElement(form, 0, newItem(form, 'radio', 'x'), 'nope')).toBe(form);
    });

    it('reorders inside a group, moves items into and out of it, and never changes the given form', () => {
      const form = grouped();
      const frozen = JSON.stringify(form);
      // Within the group: q3 before q2.
      const swapped = moveElement(form, 0, { container: 'g1', index: 1 }, { container: 'g1', index: 0 });
      expect(outline(swapped)).toEqual(['q1', { g1: ['q3', 'q2'] }, 'q4']);
      // Down inside the same list: index counts positions before the move.
      const down = moveElement(form, 0, { container: 'g1', index: 0 }, { container: 'g1', index: 2 });
      expect(outline(down)).toEqual(['q1', { g1: ['q3', 'q2'] }, 'q4']);
      // Page item into the group, at its end.
      const into = moveElement(form, 0, { container: null, index: 2 }, { container: 'g1', index: 2 });
      expect(outline(into)).toEqual(['q1', { g1: ['q2', 'q3', 'q4'] }]);
      // Out of the group to the top of the page.
      const out = moveElement(form, 0, { container: 'g1', index: 0 }, { container: null, index: 0 });
      expect(outline(out)).toEqual(['q2', 'q1', { g1: ['q3'] }, 'q4']);
      // The group itself moves as one block.
      const block = moveElement(form, 0, { container: null, index: 1 }, { container: null, index: 3 });
      expect(outline(block)).toEqual(['q1', 'q4', { g1: ['q2', 'q3'] }]);
      expect(JSON.stringify(form)).toBe(frozen);
    });

    it('refuses moves that make no sense: into itself, past the end, from nowhere, onto its own place', () => {
      let form = grouped();
      form = addElement(form, 0, newGroup(form, '内层'), 'g1');
      expect(moveElement(form, 0, { container: null, index: 1 }, { container: 'g1', index: 0 })).toBe(form);
      expect(moveElement(form, 0, { container: null, index: 1 }, { container: 'g2', index: 0 })).toBe(form);
      expect(moveElement(form, 0, { container: null, index: 0 }, { container: 'g1', index: 9 })).toBe(form);
      expect(moveElement(form, 0, { container: null, index: 7 }, { container: null, index: 0 })).toBe(form);
      expect(moveElement(form, 0, { container: null, index: 0 }, { container: null, index: 1 })).toBe(form);
      expect(shiftElement(form, 0, { container: 'g1', index: 0 }, -1)).toBe(form);
      expect(outline(shiftElement(form, 0, { container: 'g1', index: 0 }, 1))).toEqual([
        'q1',
        { g1: ['q3', 'q2', 'g2'] },
        'q4',
      ]);
    });

    it('renames a group and deletes it with its items and the rules that needed them', () => {
      let form = grouped();
      form = updateContainer(form, 0, 'g1', { title: '实验室检查' });
      expect(findContainer(form, 0, 'g1')?.title).toBe('实验室检查');
      form = {
        ...form,
        showRules: [
          { indicatorName: 'q2', condition: 'equals', indicatorVal: '1', selectItems: ['q4'] },
          { indicatorName: 'q1', condition: 'equals', indicatorVal: '1', selectItems: ['q3', 'q4'] },
          { indicatorName: 'q1', condition: 'equals', indicatorVal: '2', selectPanel: ['g1'] },
        ],
      };
      const g = elementsAt(form, 0, null)[1]!;
      expect(itemCount(g)).toBe(2);
      const next = removeElement(form, 0, { container: null, index: 1 });
      expect(outline(next)).toEqual(['q1', 'q4']);
      expect(next.showRules).toEqual([
        { indicatorName: 'q1', condition: 'equals', indicatorVal: '1', selectItems: ['q4'] },
        { indicatorName: 'q1', condition: 'equals', indicatorVal: '2', selectPanel: [] },
      ]);
      expect(analyzeForm(parseForm(next))).toEqual([]);
      // An item inside a group goes alone.
      expect(outline(removeElement(form, 0, { container: 'g1', index: 0 }))).toEqual([
        'q1',
        { g1: ['q3'] },
        'q4',
      ]);
    });

    it('lists every item with its page and group path, and an edit through a row lands in the group', () => {
      let form = addPage(grouped(), '二');
      form = addElement(form, 0, newGroup(form, '内层'), 'g1');
      form = addElement(form, 0, newItem(form, 'textQuestion', 'E'), 'g2');
      form = addElement(form, 1, newItem(form, 'radio', 'F'));
      const rows = itemRows(form);
      expect(rows.map((r) => [r.item.key, r.page, r.path.map((g) => g.title).join('/')])).toEqual([
        ['q1', 0, ''],
        ['q2', 0, '既往史'],
        ['q3', 0, '既往史'],
        ['q5', 0, '既往史/内层'],
        ['q4', 0, ''],
        ['q6', 1, ''],
      ]);
      expect(rows[3]!.path.map((g) => g.key)).toEqual(['g1', 'g2']);
      // The same items as allItems, in the same order.
      expect(rows.map((r) => r.item.key)).toEqual(allItems(form).map((i) => i.key));
      // Editing the row of an item in a nested group changes it there and nowhere else.
      const deep = rows[3]!.item;
      const edited = replaceItem(form, deep.key, { ...deep, title: '新标题' });
      expect(elementsAt(edited, 0, 'g2')).toEqual([{ ...deep, title: '新标题' }]);
      expect(outline(edited)).toEqual(outline(form));
      expect(itemRows(edited)[3]).toMatchObject({ item: { key: 'q5', title: '新标题' }, page: 0 });
      expect(elementsAt(form, 0, 'g2')[0]?.title).toBe('E');
      // A page that keeps its children under `groups` lists them too.
      const old: Form = {
        pages: [
          { key: 'p', groups: [{ key: 'h', title: '病史', items: [{ key: 'a', type: 'textQuestion' }] }] },
        ],
      };
      expect(itemRows(old)).toEqual([
        { item: { key: 'a', type: 'textQuestion' }, page: 0, path: [{ key: 'h', title: '病史' }] },
      ]);
      expect(itemRows({ pages: [] })).toEqual([]);
    });

    it('locates items and lists every page and group as a move target, nested groups by their path', () => {
      let form = addPage(grouped(), '二');
      form = addElement(form, 0, newGroup(form, ''), 'g1');
      form = addElement(form, 0, newItem(form, 'textQuestion', 'E'), 'g2');
      form = addElement(form, 1, newItem(form, 'radio', 'F'));
      expect(locateItem(form, 'q1')).toEqual({ page: 0, container: null, index: 0 });
      expect(locateItem(form, 'q3')).toEqual({ page: 0, container: 'g1', index: 1 });
      expect(locateItem(form, 'q5')).toEqual({ page: 0, container: 'g2', index: 0 });
      expect(locateItem(form, 'q6')).toEqual({ page: 1, container: null, index: 0 });
      // A container is not an item, and an unknown key is nowhere.
      expect(locateItem(form, 'g1')).toBeNull();
      expect(locateItem(form, 'nope')).toBeNull();
      // An untitled group is shown by its key.
      expect(moveTargets(form)).toEqual([
        { page: 0, container: null, path: [] },
        { page: 0, container: 'g1', path: ['既往史'] },
        { page: 0, container: 'g2', path: ['既往史', 'g2'] },
        { page: 1, container: null, path: [] },
      ]);
      expect(moveTargets({ pages: [] })).toEqual([]);
    });

    it('moves an item into a group, out of it and to another page, keeping its rules; bad targets change nothing', () => {
      let form = addPage(grouped(), '二');
      form = addElement(form, 1, newGroup(form, '随访'));
      const frozen = JSON.stringify(form);
      // Same page: into the end of g1, and back out to the end of the page.
      const inG1 = moveItemTo(form, 'q1', 0, 'g1');
      expect(outline(inG1)).toEqual([{ g1: ['q2', 'q3', 'q1'] }, 'q4']);
      expect(outline(moveItemTo(inG1, 'q2', 0, null))).toEqual([{ g1: ['q3', 'q1'] }, 'q4', 'q2']);
      // Across pages, into the group of page 2: the item is there as it was, and its rule stays.
      const q1 = elementsAt(form, 0, null)[0];
      const away = moveItemTo(form, 'q1', 1, 'g2');
      expect(elementsAt(away, 1, 'g2')).toEqual([q1]);
      expect(outline(away)).toEqual([{ g1: ['q2', 'q3'] }, 'q4']);
      expect(away.showRules).toEqual(form.showRules);
      expect(locateItem(away, 'q1')).toEqual({ page: 1, container: 'g2', index: 0 });
      // And to page 2's own list, from inside a group.
      const top = moveItemTo(form, 'q3', 1, null);
      expect(elementsAt(top, 1, null).map((e) => e.key)).toEqual(['g2', 'q3']);
      expect(elementsAt(top, 0, 'g1').map((e) => e.key)).toEqual(['q2']);
      expect(parseForm(top)).toBeTruthy();
      // Where it already is, an unknown item, page or group, or a group key given as the item.
      expect(moveItemTo(form, 'q2', 0, 'g1')).toBe(form);
      expect(moveItemTo(form, 'nope', 0, null)).toBe(form);
      expect(moveItemTo(form, 'q1', 5, null)).toBe(form);
      expect(moveItemTo(form, 'q1', 0, 'g2')).toBe(form);
      expect(moveItemTo(form, 'g1', 1, null)).toBe(form);
      expect(JSON.stringify(form)).toBe(frozen);
    });

    it('edits a page that keeps its children under `groups`, like the older product wrote them', () => {
      const old: Form = {
        pages: [
          {
            key: 'p2',
            groups: [
              { key: 'history', title: '病史', items: [{ key: 'a', type: 'textQuestion', title: 'A' }] },
            ],
          },
        ],
      };
      const form = addElement(old, 0, newItem(old, 'textQuestion', 'B'), 'history');
      expect(elementsAt(form, 0, 'history').map((e) => e.key)).toEqual(['a', 'q1']);
      const out = moveElement(form, 0, { container: 'history', index: 1 }, { container: null, index: 1 });
      expect((out.pages[0] as { groups: unknown[] }).groups).toHaveLength(2);
      expect(out.pages[0]?.items).toBeUndefined();
    });
  });
});

describe('why a form does not parse', () => {
  it('is worded in the reader’s language', () => {
    let fault: unknown;
    try {
      parseForm({ pages: [{ key: 'p', items: [{ type: 'radio', key: 'r' }] }] });
    } catch (e) {
      fault = e;
    }
    expect(parseFaultText(fault, 'zh-CN')).toBe('pages.0.items.0.options: 单选题需要选项');
    expect(parseFaultText(fault, 'en-US')).toBe(
      'pages.0.items.0.options: a single choice item needs options',
    );
    expect(parseFaultText(new Error('x'), 'zh-CN')).toBe('x');
  });
});
