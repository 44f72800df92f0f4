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
export interface RedcapCounts {
  fields: { total: number; imported: number; notImported: number };
  branching: { total: number; translated: number; notTranslated: number };
  calculations: { total: number; translated: number; notTranslated: number };
  actionTags: { total: number; translated: number; notTranslated: number };
}

// Text validation types: what CRDP keeps of each (a number with its decimals, a date) and what not.
const DECIMALS = /^number_(\d)dp(_comma_decimal)?$/;
function validated(key: string, v: string, item: FormItem, unsupported: string[]): void {
  if (!v) {
    item.textType = 'text';
    return;
  }
  const dp = DECIMALS.exec(v);
  if (v === 'integer' || v === 'int') Object.assign(item, { textType: 'number', fixed: 0 });
  else if (v === 'number' || v === 'float') item.textType = 'number';
  else if (dp) Object.assign(item, { textType: 'number', fixed: Number(dp[1]) });
  else if (v === 'number_comma_decimal') item.textType = 'number';
  else if (/^date_(ymd|dmy|mdy)$/.test(v)) item.textType = 'date';
  else if (/^datetime_(seconds_)?(ymd|dmy|mdy)$/.test(v)) {
    item.textType = 'date';
    unsupported.push(`${key}: validation "${v}" imported as a date (the time of day is not kept)`);
  } else {
    item.textType = 'text';
    unsupported.push(`${key}: validation "${v}" (a format check) not kept; imported as free text`);
  }
  if (/comma_decimal$/.test(v))
    unsupported.push(
      `${key}: validation "${v}": the comma as decimal separator is not kept (numbers use a dot)`,
    );
  if (/^date_(dmy|mdy)$/.test(v))
    unsupported.push(
      `${key}: validation "${v}": the display order is not kept (dates are shown year-month-day)`,
    );
}

export function fromRedcap(rows: string[][]): { form: Form; unsupported: string[]; counts: RedcapCounts } {
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
  const counts: RedcapCounts = {
    fields: { total: 0, imported: 0, notImported: 0 },
    branching: { total: 0, translated: 0, notTranslated: 0 },
    calculations: { total: 0, translated: 0, notTranslated: 0 },
    actionTags: { total: 0, translated: 0, notTranslated: 0 },
  };
  const left: string[] = [];
  for (const [n, r] of rows.slice(1).entries()) {
    const [variable = '', formName = 'form', section = '', type = '', label = '', choiceText = ''] = r;
    const validation = r[7] ?? '';
    const min = r[8] ?? '';
    const max = r[9] ?? '';
    const logic = r[11] ?? '';
    const required = (r[12] ?? '').trim().toLowerCase() === 'y';
    const annotation = (r[17] ?? '').trim();
    const note = (r[6] ?? '').trim();
    const identifier = (r[10] ?? '').trim().toLowerCase() === 'y';
    const matrix = (r[15] ?? '').trim();
    const key = variable.trim();
    if (!key) continue;
    counts.fields.total++;
    const list = pages.get(formName) ?? [];
    pages.set(formName, list);
    if (section.trim()) list.push({ key: `${key}__section`, type: 'paragraph', title: section.trim() });
    const base: FormItem = { key, type: 'textQuestion', title: label.replace(/<[^>]+>/g, '').trim() || key };
    if (required) base.isRequired = 1;
    let item: FormItem | null = base;
    switch (type.trim()) {
      case 'text': {
        const v = validation.trim();
        item = { ...base };
        validated(key, v, item, unsupported);
        for (const [bound, text] of [
          ['minVal', min.trim()],
          ['maxVal', max.trim()],
        ] as const) {
          if (!text) continue;
          if (item.textType === 'number' && Number.isFinite(Number(text))) item[bound] = Number(text);
          else
            unsupported.push(
              `${key}: validation ${bound === 'minVal' ? 'min' : 'max'} "${text}" not kept (bounds are kept on numbers only)`,
            );
        }
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
      case 'slider': {
        // Its range is Text Validation Min/Max (default 0 to 100); its labels (left | middle | right) are words.
        const lo = min.trim() !== '' && Number.isFinite(Number(min)) ? Number(min) : 0;
        const hi = max.trim() !== '' && Number.isFinite(Number(max)) ? Number(max) : 100;
        item = { ...base, textType: 'number', minVal: lo, maxVal: hi, fixed: 0 };
        const labels = choiceText
          .split('|')
          .map((x) => x.trim())
          .filter(Boolean);
        if (labels.length)
          unsupported.push(
            `${key}: slider labels "${labels.join(' | ')}" not kept (a number from ${lo} to ${hi})`,
          );
        break;
      }
      case 'calc':
        counts.calculations.total++;
        if (SUM.test(choiceText)) {
          counts.calculations.translated++;
          const fields = [...choiceText.matchAll(/\[([A-Za-z0-9_]+)\]/g)].map((m) => m[1]!);
          item = { ...base, textType: 'number', fxTopicData: { func: 'sum', fields } };
        } else {
          counts.calculations.notTranslated++;
          unsupported.push(`${key}: calculation "${choiceText}"`);
          item = { ...base, textType: 'number' };
        }
        break;
      default:
        unsupported.push(`${key}: field type "${type}"`);
        item = null;
    }
    if (item && (item.type === 'radio' || item.type === 'checkbox') && !item.options?.length) {
      unsupported.push(`${key}: no choices`);
      item = null;
    }
    if (!item) {
      counts.fields.notImported++;
      // Row n + 2: the header is row 1 (a quoted line break makes a row longer than a line).
      left.push(`row ${n + 2} "${key}" (${type.trim() || 'no field type'})`);
      continue;
    }
    counts.fields.imported++;
    if (logic.trim()) {
      counts.branching.total++;
      const rules = branching(logic.trim(), key);
      if (rules) {
        counts.branching.translated++;
        item.isHide = 1;
        showRules.push(...rules);
      } else {
        counts.branching.notTranslated++;
        unsupported.push(`${key}: branching logic "${logic.trim()}"`);
      }
    }
    // Action tags: @HIDDEN hides the field (no rule shows it), @READONLY shows it not editable; the others have no CRDP counterpart yet.
    if (annotation) {
      const tags = annotation.match(/@[A-Z][A-Z0-9_-]*/g) ?? [];
      const kept = tags.filter((t) => t === '@HIDDEN' || t === '@READONLY');
      counts.actionTags.total += tags.length;
      counts.actionTags.translated += kept.length;
      counts.actionTags.notTranslated += tags.length - kept.length;
      if (kept.includes('@HIDDEN')) item.isHide = 1;
      if (kept.includes('@READONLY')) item.readOnly = 1;
      if (tags.length > kept.length || !tags.length)
        unsupported.push(`${key}: field annotation "${annotation}"`);
    }
    if (note) unsupported.push(`${key}: field note "${note}" not kept (items have no help text)`);
    if (identifier)
      unsupported.push(`${key}: marked an identifier in REDCap; CRDP keeps no identifier flag on an item`);
    if (matrix) unsupported.push(`${key}: matrix group "${matrix}" imported as a separate item`);
    list.push(item);
  }
  if (!counts.fields.imported)
    throw refuse(
      'content',
      `数据字典中没有可导入的字段（${left.join('；')}）`,
      `the data dictionary has no field that can be imported (${left.join('; ')})`,
    );
  const form: Form = {
    pages: [...pages.entries()].map(([name, items], i) => ({ key: `page_${i + 1}`, title: name, items })),
    showRules,
  };
  return { form, unsupported, counts };
}
