import { describe, expect, it } from 'vitest';
import { FormParseError, parseForm } from './schema.js';
import { sampleForm } from './testdata/sample-form.js';

const faultsOf = (json: unknown) => {
  try {
    parseForm(json);
  } catch (e) {
    if (e instanceof FormParseError) return e.faults;
    throw e;
  }
  return [];
};

describe('parseForm', () => {
  it('accepts the sample form with every item type and container', () => {
    const form = parseForm(sampleForm());
    expect(form.pages).toHaveLength(2);
  });

  it('keeps fields it does not know, so older forms import unchanged', () => {
    const json = {
      pages: [{ items: [{ key: 'a', type: 'textQuestion', legacyColor: 'red' }] }],
      vendor: { v: 3 },
    };
    const form = parseForm(JSON.stringify(json));
    expect(form.vendor).toEqual({ v: 3 });
    expect((form.pages[0]!.items![0] as Record<string, unknown>).legacyColor).toBe('red');
  });

  it('accepts the older flags: 0/1, "0"/"1" and booleans', () => {
    expect(() =>
      parseForm({
        pages: [{ items: [{ key: 'a', type: 'upload', isRequired: '1', isHide: 0, fxManual: false }] }],
      }),
    ).not.toThrow();
  });

  it('refuses a malformed form with the path of each fault', () => {
    const json = sampleForm() as unknown as { pages: { items: Record<string, unknown>[] }[] };
    json.pages[0]!.items[2]!.options = [{ name: '男' }];
    json.pages[0]!.items[7]!.minVal = 'low';
    expect(faultsOf(json).map((f) => f.path)).toEqual([
      'pages.0.items.2.options.0.code',
      'pages.0.items.7.minVal',
    ]);
  });

  it('refuses items without key, choices without options, unknown types and duplicate keys', () => {
    const faults = faultsOf({
      pages: [
        {
          groups: [
            { panel: [{ type: 'radio', key: 'r' }, { type: 'textQuestion' }, { type: 'slider', key: 's' }] },
            { key: 'r', type: 'upload' },
          ],
        },
      ],
    });
    expect(faults).toEqual([
      {
        path: 'pages.0.groups.0.panel.0.options',
        message: 'a single choice item needs options',
        messageZh: '单选题需要选项',
      },
      {
        path: 'pages.0.groups.0.panel.1.key',
        message: 'a text / number item needs a key',
        messageZh: '填空题需要编码（key）',
      },
      {
        path: 'pages.0.groups.0.panel.2.type',
        message: "unknown item type 'slider'",
        messageZh: "未知的题目类型 'slider'",
      },
      {
        path: 'pages.0.groups.1.key',
        message: "duplicate key 'r' (first at pages.0.groups.0.panel.0)",
        messageZh: "key 'r' 重复（首次出现在 pages.0.groups.0.panel.0）",
      },
    ]);
    expect(faultsOf({ pages: [] })[0]!.path).toBe('pages');
    expect(() => parseForm({ pages: [] })).toThrow(/malformed form: pages/);
  });
});
