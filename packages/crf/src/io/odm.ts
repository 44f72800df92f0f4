import { XMLValidator } from 'fast-xml-parser';
import { createFunctionRegistry, findFunction } from '../functions.js';
import type { Form, FormItem, FormPage, Option, ShowRule } from '../types.js';
import { kids, type XNode, attr as xmlAttr, xmlParser, text as xmlText } from '../xml.js';
import { FormImportError, refuse } from './errors.js';
import { CRDP_CONTEXT, readCondition, readMethod, type Term } from './odm-expr.js';
import { isOpenClinicaMetadata, openClinicaForm, type PlacedItem } from './openclinica.js';
import { OPS } from './operators.js';
import { fromRedcapOdm, isRedcapMetadata, redcapRows } from './redcap-odm.js';

// ---------------------------------------------------------------------------------------------
// CDISC ODM 1.3.2 metadata

/** Largest ODM file accepted: the metadata of a whole study is well under this. */
export const MAX_ODM_CHARS = 5 * 1024 * 1024;

// Character references (`&#10;` in a value) are decoded; the DOCTYPE check below keeps entity definitions out.
const odmParser = xmlParser({ parseAttributeValue: false, maxNestedTags: 64, htmlEntities: true });

const kid = (node: XNode | undefined, name: string) => kids(node, name)[0];
const attr = (node: XNode | undefined, name: string) => xmlAttr(node, name)?.trim();
const text = (node: XNode | undefined) => xmlText(node) ?? '';

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

/** A read ODM file: its study, its forms in protocol order, and how to build one of them. */
/** The `<ODM>` element of a file: size, DOCTYPE and well-formedness checked; a refusal names `content`. */
export function parseOdm(xmlText: string): XNode {
  const field = 'content' as const;
  if (xmlText.length > MAX_ODM_CHARS)
    throw refuse(
      field,
      `ODM 文件超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
      `the ODM file is larger than ${MAX_ODM_CHARS / 1024 / 1024} MB`,
    );
  // No DTDs at all: entity definitions are how XML bombs and external-entity reads (XXE) start.
  if (/<!DOCTYPE|<!ENTITY/i.test(xmlText))
    throw refuse(
      field,
      'ODM 文件不能包含 DOCTYPE 或实体声明',
      'an ODM file must not contain a DOCTYPE or entity declarations',
    );
  let check: ReturnType<typeof XMLValidator.validate>;
  try {
    check = XMLValidator.validate(xmlText);
  } catch (e) {
    throw refuse(
      field,
      `无法读取的 XML（${e instanceof Error ? e.message : String(e)}）`,
      `not readable XML (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (check !== true)
    throw refuse(
      field,
      `XML 格式不正确（第 ${check.err.line} 行：${check.err.msg}）`,
      `not well-formed XML (line ${check.err.line}: ${check.err.msg})`,
    );
  let doc: XNode;
  try {
    doc = odmParser.parse(xmlText) as XNode;
  } catch (e) {
    throw refuse(
      field,
      `无法读取的 XML（${e instanceof Error ? e.message : String(e)}）`,
      `not readable XML (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const odm = kid(doc, 'ODM');
  if (!odm)
    throw refuse(
      field,
      '根元素不是 <ODM>（CDISC ODM 1.3.2）',
      'the root element is not <ODM> (CDISC ODM 1.3.2)',
    );
  return odm;
}

export function openOdm(xmlText: string) {
  const field = 'content' as const;
  const odm = parseOdm(xmlText);
  const study = kids(odm, 'Study').find((s) => kids(s, 'MetaDataVersion').length);
  const mdv = kid(study, 'MetaDataVersion');
  if (!study || !mdv)
    throw refuse(
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
    throw refuse(field, 'MetaDataVersion 中没有定义任何 FormDef', 'the MetaDataVersion defines no FormDef');

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
  /** One FormDef as a CRDP form and what it could not translate. */
  const build = (chosen: string, keysOut?: Map<string, string>): { form: Form; unsupported: string[] } => {
    const formDef = formDefs.get(chosen);
    if (!formDef)
      throw refuse(
        'formOid',
        `文件中没有 FormDef "${chosen}"（文件中有：${order.join('、')}）`,
        `no FormDef "${chosen}" in the file (it has ${order.join(', ')})`,
      );

    const unsupported: string[] = [];
    // A REDCap project XML: its fields as data dictionary rows, through the dictionary import.
    if (isRedcapMetadata(mdv)) {
      const { rows } = redcapRows(mdv, formDef);
      if (rows.length < 2)
        throw refuse(field, `FormDef "${chosen}" 中没有题目`, `the FormDef "${chosen}" has no items`);
      const r = fromRedcapOdm(mdv, formDef);
      return { form: r.form, unsupported: r.unsupported };
    }

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
    const exceptions: Array<{ oid: string; key: string; cond: string; page?: boolean }> = [];
    const keepKeys = () => {
      for (const [ref, key] of keyByRef) keysOut?.set(ref, key);
    };
    const derived: Array<{ oid: string; item: FormItem; method: string }> = [];
    const aliasOf = (node: XNode | undefined, context: string) =>
      kids(node, 'Alias').find((a) => attr(a, 'Context') === context)?.['@_Name'] as string | undefined;
    const pageKeys = new Set<string>();
    const placed: PlacedItem[] = [];

    let pages: FormPage[] = [];
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
        if (method) derived.push({ oid: ioid, item, method });
        placed.push({ oid: ioid, def, groupOid: goid, item });
        items.push(item);
      }
      // CRDP's own export names the page's key (Alias crdp:key); else page_<n>.
      const own = aliasOf(group, 'crdp:key');
      const key =
        own && /^[\w.-]+$/.test(own) && !pageKeys.has(own) && !used.has(own)
          ? own
          : `page_${pages.length + 1}`;
      pageKeys.add(key);
      const pageCond = attr(gref, 'CollectionExceptionConditionOID');
      if (pageCond) exceptions.push({ oid: goid, key, cond: pageCond, page: true });
      const name = attr(group, 'Name') || goid;
      // A group's description (often the instructions of a questionnaire) opens the page as a paragraph.
      const description = translated(kid(group, 'Description'));
      if (description && description !== name)
        items.unshift({ key: `${key}_intro`, type: 'paragraph', title: description });
      pages.push({ key, title: name, items });
    }
    // OpenClinica 3.x: a page per CRF section, its item texts, response types and conditional display.
    let extraRules: ShowRule[] = [];
    if (isOpenClinicaMetadata(mdv)) {
      const oc = openClinicaForm(mdv, formDef, chosen, placed, keyByRef, unsupported);
      pages = oc.pages;
      extraRules = oc.showRules;
    }
    if (!pages.some((p) => p.items?.some((i) => i.type !== 'paragraph')))
      throw refuse(field, `FormDef "${chosen}" 中没有题目`, `the FormDef "${chosen}" has no items`);

    // A collection exception hides an item (or a page) while its condition holds: show rules with
    // the opposite test. Rules with the same test are one rule naming each target.
    const showRules: ShowRule[] = [];
    const ruleOf = new Map<string, ShowRule>();
    const booleans = new Set(
      pages
        .flatMap((p) => (p.items ?? []) as FormItem[])
        .filter((i) => i.options === YES_NO)
        .map((i) => i.key),
    );
    const hidden = new Set<string>();
    for (const x of exceptions) {
      const expr = text(kid(conditions.get(x.cond), 'FormalExpression'));
      const terms = exceptionTerms(expr, keyByRef, booleans);
      if (!terms) {
        unsupported.push(
          `${x.oid}: collection exception condition ${x.cond}${expression(conditions.get(x.cond))} not translated into a show rule`,
        );
        continue;
      }
      const field = x.page ? 'selectPanel' : 'selectItems';
      for (const t of terms) {
        const id = `${t.ref}\u0000${t.condition}\u0000${JSON.stringify(t.value)}\u0000${field}`;
        const rule = ruleOf.get(id);
        if (rule) (rule[field] as string[]).push(x.key);
        else {
          const made: ShowRule = {
            indicatorName: t.ref,
            condition: t.condition,
            indicatorVal: t.value,
            [field]: [x.key],
          };
          ruleOf.set(id, made);
          showRules.push(made);
        }
      }
      if (!x.page) hidden.add(x.key);
    }
    for (const p of pages) for (const i of p.items ?? []) if (hidden.has((i as FormItem).key)) i.isHide = 1;

    // A derivation method in CRDP's grammar (a function of the calculation registry on items of
    // this form) becomes the item's calculation; any other is reported.
    const registry = createFunctionRegistry();
    for (const d of derived) {
      const def = methods.get(d.method);
      const exprs = kids(def, 'FormalExpression');
      const own = exprs.find((e) => attr(e, 'Context') === CRDP_CONTEXT) ?? exprs[0];
      const call = own ? readMethod(text(own)) : null;
      const ref = (r: string | undefined) => (r === undefined ? undefined : keyByRef.get(r));
      const fields = call?.fields.map((f) => keyByRef.get(f));
      if (
        !call ||
        !findFunction(registry, call.func) ||
        fields?.some((f) => !f) ||
        (call.x !== undefined && !ref(call.x)) ||
        (call.y !== undefined && !ref(call.y))
      ) {
        unsupported.push(`${d.oid}: derivation method ${d.method}${expression(def)} not translated`);
        continue;
      }
      const calc: NonNullable<FormItem['fxTopicData']> = { func: call.func };
      if (fields?.length) calc.fields = fields as string[];
      if (call.x !== undefined || call.y !== undefined) {
        calc.xyValue = {};
        if (call.x !== undefined) calc.xyValue.x = ref(call.x)!;
        if (call.y !== undefined) calc.xyValue.y = ref(call.y)!;
      }
      if (call.compare !== undefined) calc.compare = call.compare;
      d.item.fxTopicData = calc;
    }
    const form: Form = { title: attr(formDef, 'Name') ?? chosen, pages };
    showRules.push(...extraRules);
    keepKeys();
    if (showRules.length) form.showRules = showRules;
    return { form, unsupported };
  };
  const studyName = text(kid(kid(study, 'GlobalVariables'), 'StudyName')) || attr(study, 'OID') || '';
  return { odm, mdv, studyName, order, formDefs, build };
}

/**
 * One form of a CDISC ODM 1.3.2 metadata file as a CRDP form: a page per ItemGroupDef, an item
 * per ItemDef (numbers with their decimals, dates, code lists as choices, range checks as
 * bounds, Mandatory as required, units). The form is the FormDef named by `formOid`, else the
 * first in the protocol's order. What has no CRDP counterpart is reported, never guessed.
 */
export function fromOdm(xmlText: string, formOid?: string): { form: Form; unsupported: string[] } {
  const odm = openOdm(xmlText);
  const chosen = formOid ?? odm.order[0]!;
  const { form, unsupported } = odm.build(chosen);
  const others = odm.order.filter((o) => o !== chosen);
  if (others.length)
    unsupported.unshift(
      `other forms in the file were not imported: ${others.map((o) => `${o} (${attr(odm.formDefs.get(o), 'Name') ?? ''})`).join(', ')}`,
    );
  return { form, unsupported };
}

/**
 * Every form of the file at once (one study): a form per FormDef in protocol order, each with its
 * report; a FormDef without items is left out and named in `skipped`. At least one form or a refusal.
 */
export function fromOdmStudy(xmlText: string): {
  study: string;
  forms: { formOid: string; name: string; form: Form; unsupported: string[] }[];
  skipped: string[];
} {
  const odm = openOdm(xmlText);
  const forms: { formOid: string; name: string; form: Form; unsupported: string[] }[] = [];
  const skipped: string[] = [];
  for (const formOid of odm.order)
    try {
      const name = attr(odm.formDefs.get(formOid), 'Name') || formOid;
      forms.push({ formOid, name, ...odm.build(formOid) });
    } catch (e) {
      if (!(e instanceof FormImportError)) throw e;
      skipped.push(`${formOid}: ${e.en}`);
    }
  if (!forms.length) throw refuse('content', '文件中没有含题目的表单', 'no form of the file has items');
  return { study: odm.studyName, forms, skipped };
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
// An item of the same form, possibly in another item group: ../ItemGroupData[@ItemGroupOID='G']/ItemData[...].
const XPATH_TEST =
  /^\.\.\/(?:ItemGroupData\[@ItemGroupOID='[^']+'\]\/)?ItemData\[@ItemOID='([^']+)'\]\[@Value\s*(=|!=|>=|<=|>|<)\s*(?:'([^']*)'|(-?\d+(?:\.\d+)?))\]$/;

/**
 * The tests under which an item is collected (shown), from the condition under which it is not:
 * `!(a or b)` is shown while a or b holds; one plain test is shown while it fails. Null when the
 * expression is neither (reported by the caller).
 */
function exceptionTerms(expr: string, keyByRef: Map<string, string>, booleans: Set<string>): Term[] | null {
  const e = expr.trim();
  let read: { negated: boolean; terms: Term[] } | null = null;
  const not = /^!\s*\((.*)\)$/.exec(e);
  const xpath = XPATH_TEST.exec(not ? not[1]!.trim() : e);
  if (xpath) {
    const [, ref, op, a, b] = xpath;
    const condition = ODM_OPS[op!];
    if (!condition) return null;
    read = { negated: !!not, terms: [{ ref: ref!, condition, value: a ?? b ?? '' }] };
  } else read = readCondition(e);
  if (!read) return null;
  if (!read.negated && (read.terms.length !== 1 || !NEGATE[read.terms[0]!.condition])) return null;
  const out: Term[] = [];
  for (const t of read.terms) {
    const key = keyByRef.get(t.ref);
    if (!key) return null;
    let value = t.value;
    // A boolean item without a code list was imported with the codes 1 and 0.
    if (booleans.has(key) && /^(true|false)$/i.test(String(value)))
      value = String(value).toLowerCase() === 'true' ? '1' : '0';
    out.push({ ref: key, condition: read.negated ? t.condition : NEGATE[t.condition]!, value });
  }
  return out;
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
      // CRDP's own export: several codes in one value (Alias crdp:itemType), or a dropdown.
      const kind = kids(def, 'Alias').find((a) => attr(a, 'Context') === 'crdp:itemType');
      if (attr(kind, 'Name') === 'checkbox') item.type = 'checkbox';
      else if (attr(kind, 'Name') === 'select') item.typeQ = 'select';
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
