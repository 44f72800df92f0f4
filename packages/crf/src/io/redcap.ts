import type { Form, FormItem, Option, ShowRule } from '../types.js';
import { refuse } from './errors.js';
import { OPS } from './operators.js';

// [field] op 'value' | [field(code)] = '1' (a checkbox option ticked)
const SIMPLE =
  /^\s*\[([A-Za-z0-9_]+)(?:\(([^)]+)\))?\]\s*(<>|!=|>=|<=|=|>|<)\s*(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?))\s*$/;

/** REDCap branching logic to show rules: single conditions and `or` of them; anything else is reported. */
function branching(logic: string, target: string): ShowRule[] | null {
  const parts = logic.split(/\s+or\s+/i);
  const rules: ShowRule[] = [];
  for (const p of parts) {
    const m = SIMPLE.exec(p.replace(/^\(|\)$/g, ''));
    if (!m) return null;
    const [, field, option, op, q1, q2, n] = m;
    const value = q1 ?? q2 ?? n ?? '';
    if (option) {
      if (op !== '=' || (value !== '1' && value !== '0')) return null;
      rules.push({
        indicatorName: field!,
        condition: value === '1' ? 'contains' : 'notContains',
        indicatorVal: option,
        selectItems: [target],
      });
    } else
      rules.push({ indicatorName: field!, condition: OPS[op!]!, indicatorVal: value, selectItems: [target] });
  }
  return rules;
}

const choices = (s: string): Option[] =>
  s
    .split('|')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      const i = c.indexOf(',');
      return i < 0 ? { code: c, name: c } : { code: c.slice(0, i).trim(), name: c.slice(i + 1).trim() };
    });

// calc: [a] + [b] (+ ...) is a sum; anything else is reported.
const SUM = /^\s*\[[A-Za-z0-9_]+\](\s*\+\s*\[[A-Za-z0-9_]+\])*\s*$/;

/**
 * A REDCap data dictionary (18 columns), as rows of its CSV file, as a CRDP form: one page per instrument, a group per
 * section header. Returns what could not be translated instead of guessing.
 */
export function fromRedcap(rows: string[][]): { form: Form; unsupported: string[] } {
  if (rows.length < 2)
    throw refuse(
      'content',
      'REDCap 数据字典至少要有表头和一个字段',
      'a REDCap data dictionary needs a header and at least one field',
    );
  const header = rows[0]!.map((h) => h.toLowerCase());
  if (!header[0]?.includes('variable') || header.length < 8)
    throw refuse(
      'content',
      'REDCap 数据字典的第一列应为 "Variable / Field Name"',
      'the first column of a REDCap data dictionary is "Variable / Field Name"',
    );
  const unsupported: string[] = [];
  const pages = new Map<string, FormItem[]>();
  const showRules: ShowRule[] = [];
  for (const r of rows.slice(1)) {
    const [variable = '', formName = 'form', section = '', type = '', label = '', choiceText = ''] = r;
    const validation = r[7] ?? '';
    const min = r[8] ?? '';
    const max = r[9] ?? '';
    const logic = r[11] ?? '';
    const required = (r[12] ?? '').trim().toLowerCase() === 'y';
    const annotation = (r[17] ?? '').trim();
    const key = variable.trim();
    if (!key) continue;
    const list = pages.get(formName) ?? [];
    pages.set(formName, list);
    if (section.trim()) list.push({ key: `${key}__section`, type: 'paragraph', title: section.trim() });
    const base: FormItem = { key, type: 'textQuestion', title: label.replace(/<[^>]+>/g, '').trim() || key };
    if (required) base.isRequired = 1;
    let item: FormItem | null = base;
    switch (type.trim()) {
      case 'text': {
        const v = validation.trim();
        if (/^(integer|number)/.test(v)) item = { ...base, textType: 'number' };
        else if (/^date/.test(v)) item = { ...base, textType: 'date' };
        else item = { ...base, textType: 'text' };
        if (min.trim() && !Number.isNaN(Number(min))) item.minVal = Number(min);
        if (max.trim() && !Number.isNaN(Number(max))) item.maxVal = Number(max);
        break;
      }
      case 'notes':
        item = { ...base, textType: 'textarea' };
        break;
      case 'radio':
        item = { ...base, type: 'radio', options: choices(choiceText) };
        break;
      case 'dropdown':
        item = { ...base, type: 'radio', typeQ: 'select', options: choices(choiceText) };
        break;
      case 'checkbox':
        item = { ...base, type: 'checkbox', options: choices(choiceText) };
        break;
      case 'yesno':
        item = {
          ...base,
          type: 'radio',
          options: [
            { code: '1', name: '是 Yes' },
            { code: '0', name: '否 No' },
          ],
        };
        break;
      case 'truefalse':
        item = {
          ...base,
          type: 'radio',
          options: [
            { code: '1', name: '真 True' },
            { code: '0', name: '假 False' },
          ],
        };
        break;
      case 'descriptive':
        item = { ...base, type: 'paragraph' };
        delete item.isRequired;
        break;
      case 'file':
        item = { ...base, type: 'upload' };
        break;
      case 'slider':
        item = { ...base, textType: 'number', minVal: 0, maxVal: 100 };
        break;
      case 'calc':
        if (SUM.test(choiceText)) {
          const fields = [...choiceText.matchAll(/\[([A-Za-z0-9_]+)\]/g)].map((m) => m[1]!);
          item = { ...base, textType: 'number', fxTopicData: { func: 'sum', fields } };
        } else {
          unsupported.push(`${key}: calculation "${choiceText}"`);
          item = { ...base, textType: 'number' };
        }
        break;
      default:
        unsupported.push(`${key}: field type "${type}"`);
        item = null;
    }
    if (!item) continue;
    if ((item.type === 'radio' || item.type === 'checkbox') && !item.options?.length) {
      unsupported.push(`${key}: no choices`);
      continue;
    }
    if (logic.trim()) {
      const rules = branching(logic.trim(), key);
      if (rules) {
        item.isHide = 1;
        showRules.push(...rules);
      } else unsupported.push(`${key}: branching logic "${logic.trim()}"`);
    }
    // Action tags (@HIDDEN, @READONLY, @DEFAULT …) and notes have no CRDP counterpart yet: reported, not dropped.
    if (annotation) unsupported.push(`${key}: field annotation "${annotation}"`);
    list.push(item);
  }
  const form: Form = {
    pages: [...pages.entries()].map(([name, items], i) => ({ key: `page_${i + 1}`, title: name, items })),
    showRules,
  };
  return { form, unsupported };
}
