import type { Form, FormItem, FormPage, Option, ShowRule } from '@crdp/crf';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { invalid } from './actor.js';

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const OPS: Record<string, string> = {
  '=': 'equals',
  '<>': 'notEquals',
  '!=': 'notEquals',
  '>': 'greaterThan',
  '<': 'lessThan',
  '>=': 'greaterOrEqual',
  '<=': 'lessOrEqual',
};
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
 * A REDCap data dictionary (18 columns) as a CRDP form: one page per instrument, a group per
 * section header. Returns what could not be translated instead of guessing.
 */
export function fromRedcap(csv: string): { form: Form; unsupported: string[] } {
  const rows = parseCsv(csv.replace(/^\ufeff/, ''));
  if (rows.length < 2)
    throw invalid(
      'body.content',
      'REDCap 数据字典至少要有表头和一个字段',
      'a REDCap data dictionary needs a header and at least one field',
    );
  const header = rows[0]!.map((h) => h.toLowerCase());
  if (!header[0]?.includes('variable') || header.length < 8)
    throw invalid(
      'body.content',
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
    list.push(item);
  }
  const form: Form = {
    pages: [...pages.entries()].map(([name, items], i) => ({ key: `page_${i + 1}`, title: name, items })),
    showRules,
  };
  return { form, unsupported };
}

export function fromJson(text: string): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    // A CRDP export wraps the form as { definition }; a bare form is accepted too.
    return v && typeof v === 'object' && 'definition' in v ? (v as { definition: unknown }).definition : v;
  } catch {
    throw invalid('body.content', '不是有效的 JSON', 'not JSON');
  }
}

// ---------------------------------------------------------------------------------------------
// CDISC ODM 1.3.2 metadata

/** Largest ODM file accepted: the metadata of a whole study is well under this. */
export const MAX_ODM_CHARS = 5 * 1024 * 1024;

type XNode = Record<string, unknown>;

const odmParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  maxNestedTags: 64,
  // Every element a list, so the walker never asks whether there was one or several.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

const kids = (node: XNode | undefined, name: string): XNode[] => {
  const v = node?.[name];
  if (!Array.isArray(v)) return [];
  return v.map((c) => (typeof c === 'object' && c !== null ? (c as XNode) : { '#text': String(c) }));
};
const kid = (node: XNode | undefined, name: string) => kids(node, name)[0];
const attr = (node: XNode | undefined, name: string) => {
  const v = node?.[`@_${name}`];
  return v === undefined ? undefined : String(v).trim();
};
const text = (node: XNode | undefined) => {
  const t = node?.['#text'];
  return t === undefined ? '' : String(t).trim();
};

/** A TranslatedText in Chinese, else English, else the first one with any text. */
function translated(node: XNode | undefined): string {
  const texts = kids(node, 'TranslatedText')
    .map((t) => ({ lang: (attr(t, 'lang') ?? '').toLowerCase(), text: text(t) }))
    .filter((t) => t.text);
  const pick = (prefix: string) => texts.find((t) => t.lang === prefix || t.lang.startsWith(`${prefix}-`));
  return (pick('zh') ?? pick('en') ?? texts[0])?.text ?? '';
}

const YES_NO: Option[] = [
  { code: '1', name: '是 Yes' },
  { code: '0', name: '否 No' },
];

/**
 * One form of a CDISC ODM 1.3.2 metadata file as a CRDP form: a page per ItemGroupDef, an item
 * per ItemDef (numbers with their decimals, dates, code lists as choices, range checks as
 * bounds, Mandatory as required, units). The form is the FormDef named by `formOid`, else the
 * first in the protocol's order. What has no CRDP counterpart is reported, never guessed.
 */
export function fromOdm(xmlText: string, formOid?: string): { form: Form; unsupported: string[] } {
  const field = 'body.content';
  if (xmlText.length > MAX_ODM_CHARS)
    throw invalid(
      field,
      `ODM 文件超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
      `the ODM file is larger than ${MAX_ODM_CHARS / 1024 / 1024} MB`,
    );
  // No DTDs at all: entity definitions are how XML bombs and external-entity reads (XXE) start.
  if (/<!DOCTYPE|<!ENTITY/i.test(xmlText))
    throw invalid(
      field,
      'ODM 文件不能包含 DOCTYPE 或实体声明',
      'an ODM file must not contain a DOCTYPE or entity declarations',
    );
  let check: ReturnType<typeof XMLValidator.validate>;
  try {
    check = XMLValidator.validate(xmlText);
  } catch (e) {
    throw invalid(
      field,
      `无法读取的 XML（${e instanceof Error ? e.message : String(e)}）`,
      `not readable XML (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (check !== true)
    throw invalid(
      field,
      `XML 格式不正确（第 ${check.err.line} 行：${check.err.msg}）`,
      `not well-formed XML (line ${check.err.line}: ${check.err.msg})`,
    );
  let doc: XNode;
  try {
    doc = odmParser.parse(xmlText) as XNode;
  } catch (e) {
    throw invalid(
      field,
      `无法读取的 XML（${e instanceof Error ? e.message : String(e)}）`,
      `not readable XML (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const odm = kid(doc, 'ODM');
  if (!odm)
    throw invalid(
      field,
      '根元素不是 <ODM>（CDISC ODM 1.3.2）',
      'the root element is not <ODM> (CDISC ODM 1.3.2)',
    );
  const study = kids(odm, 'Study').find((s) => kids(s, 'MetaDataVersion').length);
  const mdv = kid(study, 'MetaDataVersion');
  if (!study || !mdv)
    throw invalid(
      field,
      'ODM 文件中没有带 MetaDataVersion 的 Study',
      'the ODM file has no Study with a MetaDataVersion',
    );

  const byOid = (name: string) => new Map(kids(mdv, name).map((n) => [attr(n, 'OID') ?? '', n]));
  const formDefs = byOid('FormDef');
  const groupDefs = byOid('ItemGroupDef');
  const itemDefs = byOid('ItemDef');
  const codeLists = byOid('CodeList');
  const eventDefs = byOid('StudyEventDef');
  const conditions = byOid('ConditionDef');
  const methods = byOid('MethodDef');
  const expression = (def: XNode | undefined) => {
    const e = text(kid(def, 'FormalExpression'));
    return e ? ` (${e.length > 120 ? `${e.slice(0, 120)}…` : e})` : '';
  };
  const units = new Map(
    kids(kid(study, 'BasicDefinitions'), 'MeasurementUnit').map((u) => [
      attr(u, 'OID') ?? '',
      translated(kid(u, 'Symbol')) || attr(u, 'Name') || '',
    ]),
  );
  if (!formDefs.size)
    throw invalid(field, 'MetaDataVersion 中没有定义任何 FormDef', 'the MetaDataVersion defines no FormDef');

  const byOrder = (a: XNode, b: XNode) =>
    Number(attr(a, 'OrderNumber') ?? 0) - Number(attr(b, 'OrderNumber') ?? 0);
  // Protocol order: study events in turn, the forms of each; forms no event uses come last.
  const order: string[] = [];
  for (const ref of kids(kid(mdv, 'Protocol'), 'StudyEventRef').sort(byOrder))
    for (const f of kids(eventDefs.get(attr(ref, 'StudyEventOID') ?? ''), 'FormRef').sort(byOrder)) {
      const o = attr(f, 'FormOID') ?? '';
      if (formDefs.has(o) && !order.includes(o)) order.push(o);
    }
  for (const o of formDefs.keys()) if (!order.includes(o)) order.push(o);
  const chosen = formOid ?? order[0]!;
  const formDef = formDefs.get(chosen);
  if (!formDef)
    throw invalid(
      'body.formOid',
      `文件中没有 FormDef "${chosen}"（文件中有：${order.join('、')}）`,
      `no FormDef "${chosen}" in the file (it has ${order.join(', ')})`,
    );

  const unsupported: string[] = [];
  const others = order.filter((o) => o !== chosen);
  if (others.length)
    unsupported.push(
      `other forms in the file were not imported: ${others.map((o) => `${o} (${attr(formDefs.get(o), 'Name') ?? ''})`).join(', ')}`,
    );

  const used = new Set<string>();
  const keyByRef = new Map<string, string>();
  const keyOf = (oid: string) => {
    // Our own export writes OID "I.<key>": that key comes back unchanged.
    const base =
      (/^I\.[A-Za-z_]/.test(oid) ? oid.slice(2) : oid)
        .replace(/[^A-Za-z0-9_]/g, '_')
        .replace(/^(\d)/, 'I_$1') || 'item';
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    if (!keyByRef.has(oid)) keyByRef.set(oid, key);
    const name = attr(itemDefs.get(oid), 'Name');
    if (name && !keyByRef.has(name)) keyByRef.set(name, key);
    return key;
  };
  const exceptions: Array<{ oid: string; key: string; cond: string }> = [];

  const pages: FormPage[] = [];
  for (const gref of kids(formDef, 'ItemGroupRef').sort(byOrder)) {
    const goid = attr(gref, 'ItemGroupOID') ?? '';
    const group = groupDefs.get(goid);
    if (!group) {
      unsupported.push(`${goid}: ItemGroupRef to an ItemGroupDef that is not defined`);
      continue;
    }
    if (attr(group, 'Repeating') === 'Yes')
      unsupported.push(`${goid}: repeating item group imported as a single page (no repeats)`);
    const items: FormItem[] = [];
    for (const iref of kids(group, 'ItemRef').sort(byOrder)) {
      const ioid = attr(iref, 'ItemOID') ?? '';
      const def = itemDefs.get(ioid);
      if (!def) {
        unsupported.push(`${ioid}: ItemRef to an ItemDef that is not defined`);
        continue;
      }
      const item = odmItem(def, keyOf(ioid), ioid, codeLists, units, unsupported);
      if (attr(iref, 'Mandatory') === 'Yes') item.isRequired = 1;
      const cond = attr(iref, 'CollectionExceptionConditionOID');
      if (cond) exceptions.push({ oid: ioid, key: item.key, cond });
      const method = attr(iref, 'MethodOID');
      if (method)
        unsupported.push(
          `${ioid}: derivation method ${method}${expression(methods.get(method))} not translated`,
        );
      items.push(item);
    }
    const key = `page_${pages.length + 1}`;
    const name = attr(group, 'Name') || goid;
    // A group's description (often the instructions of a questionnaire) opens the page as a paragraph.
    const description = translated(kid(group, 'Description'));
    if (description && description !== name)
      items.unshift({ key: `${key}_intro`, type: 'paragraph', title: description });
    pages.push({ key, title: name, items });
  }
  if (!pages.some((p) => p.items?.some((i) => i.type !== 'paragraph')))
    throw invalid(field, `FormDef "${chosen}" 中没有题目`, `the FormDef "${chosen}" has no items`);

  // A collection exception hides an item while its condition holds: a show rule with the opposite test.
  const showRules: ShowRule[] = [];
  const booleans = new Set(
    pages
      .flatMap((p) => (p.items ?? []) as FormItem[])
      .filter((i) => i.options === YES_NO)
      .map((i) => i.key),
  );
  const hidden = new Set<string>();
  for (const x of exceptions) {
    const expr = text(kid(conditions.get(x.cond), 'FormalExpression'));
    const rule = exceptionRule(expr, keyByRef, booleans, x.key);
    if (rule) {
      showRules.push(rule);
      hidden.add(x.key);
    } else
      unsupported.push(
        `${x.oid}: collection exception condition ${x.cond}${expression(conditions.get(x.cond))} not translated into a show rule`,
      );
  }
  for (const p of pages) for (const i of p.items ?? []) if (hidden.has((i as FormItem).key)) i.isHide = 1;
  const form: Form = { title: attr(formDef, 'Name') ?? chosen, pages };
  if (showRules.length) form.showRules = showRules;
  return { form, unsupported };
}

const NEGATE: Record<string, string> = {
  equals: 'notEquals',
  notEquals: 'equals',
  greaterThan: 'lessOrEqual',
  lessThan: 'greaterOrEqual',
  greaterOrEqual: 'lessThan',
  lessOrEqual: 'greaterThan',
};
const ODM_OPS: Record<string, string> = { ...OPS, '==': 'equals' };
// ../ItemData[@ItemOID='X'][@Value='v'] (the ODM examples' XPath) or X == "v" (OpenEDC), possibly !( ... ).
const XPATH_TEST =
  /^\.\.\/ItemData\[@ItemOID='([^']+)'\]\[@Value\s*(=|!=|>=|<=|>|<)\s*(?:'([^']*)'|(-?\d+(?:\.\d+)?))\]$/;
const PLAIN_TEST = /^([A-Za-z_][\w.-]*)\s*(==|!=|>=|<=|>|<)\s*(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))$/;

/** The show rule of an item that is not collected while `expr` holds; null when the expression is not one simple test. */
function exceptionRule(
  expr: string,
  keyByRef: Map<string, string>,
  booleans: Set<string>,
  target: string,
): ShowRule | null {
  let e = expr.trim();
  let negated = false;
  const not = /^!\s*\((.*)\)$/.exec(e);
  if (not) {
    negated = true;
    e = not[1]!.trim();
  }
  const m = XPATH_TEST.exec(e) ?? PLAIN_TEST.exec(e);
  if (!m) return null;
  const [, ref, op, a, b, c] = m;
  const key = keyByRef.get(ref!);
  const test = ODM_OPS[op!];
  if (!key || !test) return null;
  let value = a ?? b ?? c ?? '';
  // A boolean item without a code list was imported with the codes 1 and 0.
  if (booleans.has(key) && /^(true|false)$/i.test(value)) value = value.toLowerCase() === 'true' ? '1' : '0';
  // Not collected while the test holds: shown while it fails (or, under a negation, while it holds).
  return {
    indicatorName: key,
    condition: negated ? test : NEGATE[test]!,
    indicatorVal: value,
    selectItems: [target],
  };
}

function odmItem(
  def: XNode,
  key: string,
  oid: string,
  codeLists: Map<string, XNode>,
  units: Map<string, string>,
  unsupported: string[],
): FormItem {
  const title =
    translated(kid(def, 'Question')) || translated(kid(def, 'Description')) || attr(def, 'Name') || key;
  const dataType = attr(def, 'DataType') ?? 'text';
  const type = dataType.toLowerCase();
  const item: FormItem = { key, type: 'textQuestion', title };
  const length = Number(attr(def, 'Length'));
  const digits = attr(def, 'SignificantDigits');
  const numeric = type === 'integer' || type === 'float' || type === 'double';
  const unitRef = attr(kid(def, 'MeasurementUnitRef'), 'MeasurementUnitOID');
  if (unitRef) {
    const unit = units.get(unitRef);
    if (unit) item.unit = unit;
    else unsupported.push(`${oid}: measurement unit ${unitRef} is not defined`);
  }

  const listRef = attr(kid(def, 'CodeListRef'), 'CodeListOID');
  if (listRef) {
    const list = codeLists.get(listRef);
    const options: Option[] = [
      ...kids(list, 'CodeListItem').map((c) => {
        const code = attr(c, 'CodedValue') ?? '';
        return { code, name: translated(kid(c, 'Decode')) || code };
      }),
      ...kids(list, 'EnumeratedItem').map((c) => {
        const code = attr(c, 'CodedValue') ?? '';
        return { code, name: code };
      }),
    ].filter((o) => o.code !== '');
    if (options.length) {
      item.type = 'radio';
      item.options = options;
      if (kids(def, 'RangeCheck').length)
        unsupported.push(`${oid}: range check on a coded item not translated`);
      return item;
    }
    unsupported.push(
      list && kid(list, 'ExternalCodeList')
        ? `${oid}: external code list ${listRef} (${attr(kid(list, 'ExternalCodeList'), 'Dictionary') ?? ''}) imported as free text`
        : `${oid}: code list ${listRef} is missing or empty; imported as free text`,
    );
  }

  if (numeric) {
    item.textType = 'number';
    if (type === 'integer') item.fixed = 0;
    else if (digits !== undefined && /^\d+$/.test(digits)) item.fixed = Number(digits);
  } else if (type === 'date') item.textType = 'date';
  else if (type === 'datetime') {
    item.textType = 'date';
    unsupported.push(`${oid}: datetime imported as a date (the time of day is not kept)`);
  } else if (type === 'boolean' && !listRef) {
    item.type = 'radio';
    item.options = YES_NO;
    return item;
  } else {
    item.textType = 'text';
    if (type !== 'text' && type !== 'string')
      unsupported.push(`${oid}: data type "${dataType}" imported as free text`);
    if (Number.isInteger(length) && length > 0) item.maxNub = length;
  }

  for (const rc of kids(def, 'RangeCheck')) {
    const cmp = attr(rc, 'Comparator') ?? '';
    const values = kids(rc, 'CheckValue').map(text);
    const n = Number(values[0]);
    const one = values.length === 1 && values[0] !== '' && Number.isFinite(n);
    if (kid(rc, 'FormalExpression') || !numeric || !one || !['LT', 'LE', 'GT', 'GE'].includes(cmp)) {
      unsupported.push(
        `${oid}: range check ${cmp || '?'} ${kid(rc, 'FormalExpression') ? '(expression)' : values.join(', ')} not translated`,
      );
      continue;
    }
    // CRDP bounds are inclusive: a strict bound on whole numbers moves by one; on decimals it is reported.
    const strict = cmp === 'LT' || cmp === 'GT';
    const step = strict && type === 'integer' ? 1 : 0;
    if (strict && type !== 'integer')
      unsupported.push(`${oid}: strict range check ${cmp} ${values[0]} kept as inclusive`);
    if (cmp === 'GT' || cmp === 'GE') item.minVal = n + step;
    else item.maxVal = n - step;
    if (attr(rc, 'SoftHard') === 'Soft')
      unsupported.push(`${oid}: soft range check ${cmp} ${values[0]} enforced as a hard bound`);
  }
  return item;
}
