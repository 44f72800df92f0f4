import type { FormItem, FormPage, Option, ShowRule } from '../types.js';
import { kids, type XNode, attr as xmlAttr, text as xmlText } from '../xml.js';

/**
 * OpenClinica 3.x study metadata (ODM 1.3 with `OpenClinica:` and `OpenClinicaRules:` extensions,
 * namespaces dropped by the reader). What the extensions add to a FormDef's plain ODM items:
 *
 * - `ItemPresentInForm` (one per CRF version the item is in): the item's text in that form
 *   (`LeftItemText`, `RightItemText`), its `ItemHeader`/`ItemSubHeader` (paragraphs before it),
 *   its `SectionLabel` (a page per section of `FormDetails/SectionDetails`, in `OrderInForm` order),
 *   its `ItemResponse` (`ResponseType` text, textarea, radio, single-select, checkbox, multi-select,
 *   file, calculation; `ResponseLayout` Horizontal kept as `typeStyle: 'horizontal'`), `ShowItem="No"`
 *   (hidden) and `SimpleConditionalDisplay` (shown while the control item has the option value).
 * - `MultiSelectList` with `MultiSelectListRef`: the choices of checkbox and multi-select items.
 * - `OpenClinicaRules:Rules`: a `ShowAction` of a rule `ITEM op value` becomes a show rule on the
 *   destination items (or every item of a destination group) of this form.
 *
 * Everything else (calculations, whose formulas OpenClinica does not export; PHI flags; scripts in
 * section texts; other rule actions) is reported, item by item.
 */

const attr = (node: XNode | undefined, name: string) => xmlAttr(node, name)?.trim();
const kid = (node: XNode | undefined, name: string) => kids(node, name)[0];
const text = (node: XNode | undefined) => xmlText(node) ?? '';
const decode = (node: XNode | undefined) =>
  kids(kid(node, 'Decode'), 'TranslatedText')
    .map((t) => text(t))
    .find(Boolean) ?? '';

/** Whether a MetaDataVersion was written by OpenClinica 3.x (its items carry `OpenClinica:ItemDetails`). */
export function isOpenClinicaMetadata(mdv: XNode | undefined): boolean {
  return (
    kids(mdv, 'FormDef').some((f) => kid(f, 'FormDetails')) ||
    kids(mdv, 'ItemDef').some((d) => kid(d, 'ItemDetails'))
  );
}

/** One item of the form as the plain ODM reading made it, with where it came from. */
export interface PlacedItem {
  oid: string;
  def: XNode;
  groupOid: string;
  item: FormItem;
}

// HTML a section text may carry (OpenClinica lets a CRF author put jQuery in it): scripts are never imported.
const SCRIPT = /<script\b[\s\S]*?<\/script\s*>/gi;
function plain(s: string): { text: string; script: boolean } {
  const script = SCRIPT.test(s);
  const t = s
    .replace(SCRIPT, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return { text: t, script };
}

const RULE_OPS: Record<string, string> = {
  eq: 'equals',
  ne: 'notEquals',
  gt: 'greaterThan',
  lt: 'lessThan',
  gte: 'greaterOrEqual',
  ge: 'greaterOrEqual',
  lte: 'lessOrEqual',
  le: 'lessOrEqual',
};
// ITEM_OID op value (a number or a quoted text): the one shape of OpenClinica rule expression translated.
const RULE_EXPR =
  /^([A-Za-z0-9_.]+)\s+(eq|ne|gt|lt|gte|ge|lte|le)\s+(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))$/;

/**
 * The pages and show rules of one OpenClinica CRF version (`formOid`), from the items the plain ODM
 * reading made (`placed`, in item-group order). `keyByRef` maps ItemOIDs and item Names to keys.
 */
export function openClinicaForm(
  mdv: XNode,
  formDef: XNode,
  formOid: string,
  placed: PlacedItem[],
  keyByRef: Map<string, string>,
  unsupported: string[],
): { pages: FormPage[]; showRules: ShowRule[] } {
  const lists = new Map(
    kids(mdv, 'MultiSelectList').map((l) => [
      attr(l, 'ID') ?? '',
      kids(l, 'MultiSelectListItem')
        .map((i) => {
          const code = attr(i, 'CodedOptionValue') ?? '';
          return { code, name: decode(i) || code };
        })
        .filter((o) => o.code !== '') as Option[],
    ]),
  );
  const sections = kids(kid(kid(formDef, 'FormDetails'), 'SectionDetails'), 'Section').map((s) => ({
    label: attr(s, 'SectionLabel') ?? '',
    title: attr(s, 'SectionTitle') || attr(s, 'SectionLabel') || '',
    notes: [attr(s, 'SectionSubtitle') ?? '', attr(s, 'SectionInstructions') ?? ''],
  }));
  const bySection = new Map<string, Array<{ order: number; at: number; items: FormItem[] }>>();
  const showRules: ShowRule[] = [];
  const hidden: FormItem[] = [];
  const conditional: Array<{ oid: string; item: FormItem; control: string; value: string }> = [];
  // Rules with the same test are one rule naming each target.
  const ruleOf = new Map<string, ShowRule>();
  const show = (ref: string, condition: string, value: string, targets: string[]) => {
    const id = `${ref}\u0000${condition}\u0000${value}`;
    const rule = ruleOf.get(id);
    if (rule)
      (rule.selectItems as string[]).push(
        ...targets.filter((t) => !(rule.selectItems as string[]).includes(t)),
      );
    else {
      const made: ShowRule = {
        indicatorName: ref,
        condition,
        indicatorVal: value,
        selectItems: [...targets],
      };
      ruleOf.set(id, made);
      showRules.push(made);
    }
  };

  placed.forEach((p, at) => {
    const { oid, def, item } = p;
    const present = kids(kid(def, 'ItemDetails'), 'ItemPresentInForm').find(
      (x) => attr(x, 'FormOID') === formOid,
    );
    const out: FormItem[] = [];
    if (!present) {
      (bySection.get('') ?? bySection.set('', []).get('')!).push({ order: Infinity, at, items: [item] });
      return;
    }
    const left = text(kid(present, 'LeftItemText'));
    const right = text(kid(present, 'RightItemText'));
    if (left) item.title = left;
    if (right) {
      if (!item.unit && right.length <= 20) item.unit = right;
      else item.title = `${item.title ?? ''} ${right}`.trim();
    }
    const header = text(kid(present, 'ItemHeader'));
    const sub = text(kid(present, 'ItemSubHeader'));
    if (header) out.push({ key: `${item.key}__header`, type: 'paragraph', title: header });
    if (sub) out.push({ key: `${item.key}__subheader`, type: 'paragraph', title: sub });

    const response = kid(present, 'ItemResponse');
    const kind = (attr(response, 'ResponseType') ?? 'text').toLowerCase();
    const multi = lists.get(attr(kid(def, 'MultiSelectListRef'), 'MultiSelectListID') ?? '');
    switch (kind) {
      case 'textarea':
        if (item.type === 'textQuestion' && item.textType === 'text') item.textType = 'textarea';
        break;
      case 'radio':
        break;
      case 'single-select':
        if (item.type === 'radio') item.typeQ = 'select';
        break;
      case 'checkbox':
      case 'multi-select': {
        const options = multi?.length ? multi : item.options;
        if (options?.length) {
          for (const k of ['textType', 'maxNub', 'fixed', 'typeQ', 'minVal', 'maxVal'] as const)
            delete item[k];
          item.type = 'checkbox';
          item.options = options;
        } else unsupported.push(`${oid}: ${kind} item without a choice list; imported as free text`);
        break;
      }
      case 'file':
        for (const k of ['textType', 'maxNub', 'fixed'] as const) delete item[k];
        item.type = 'upload';
        break;
      case 'calculation':
      case 'group-calculation':
      case 'instant-calculation':
        unsupported.push(
          `${oid}: OpenClinica ${kind} (its formula is not in the ODM metadata) imported as an entry item`,
        );
        break;
      case 'text':
        break;
      default:
        unsupported.push(`${oid}: OpenClinica response type "${kind}" imported as ${item.type}`);
    }
    if ((attr(response, 'ResponseLayout') ?? '').toLowerCase() === 'horizontal')
      item.typeStyle = 'horizontal';
    if (attr(present, 'PHI') === 'Yes')
      unsupported.push(
        `${oid}: marked PHI (an identifier) in OpenClinica; CRDP keeps no such flag on an item`,
      );

    const scd = kid(present, 'SimpleConditionalDisplay');
    if (scd) {
      const control = text(kid(scd, 'ControlItemName'));
      const value = text(kid(scd, 'OptionValue'));
      conditional.push({ oid, item, control, value });
    } else if (attr(present, 'ShowItem') === 'No') hidden.push(item);
    out.push(item);
    const section = text(kid(present, 'SectionLabel'));
    const order = Number(attr(present, 'OrderInForm'));
    (bySection.get(section) ?? bySection.set(section, []).get(section)!).push({
      order: Number.isFinite(order) ? order : Infinity,
      at,
      items: out,
    });
  });

  // Simple conditional display: shown while the control item has the option.
  const itemOf = new Map(placed.map((p) => [p.item.key, p.item]));
  for (const c of conditional) {
    const controlKey = keyByRef.get(c.control);
    const control = controlKey ? itemOf.get(controlKey) : undefined;
    if (!control || !c.value) {
      unsupported.push(
        `${c.oid}: simple conditional display on "${c.control}" = "${c.value}" not translated (no such item in this form); imported visible`,
      );
      continue;
    }
    // OpenClinica writes one code list per item (of one CRF version): another version's codes may differ.
    if (control.options && !control.options.some((o) => String(o.code) === c.value)) {
      unsupported.push(
        `${c.oid}: simple conditional display on "${c.control}" = "${c.value}" not translated ("${c.value}" is not a choice of ${control.key} in this file's code list); imported visible`,
      );
      continue;
    }
    c.item.isHide = 1;
    show(control.key, control.type === 'checkbox' ? 'contains' : 'equals', c.value, [c.item.key]);
  }

  // Rules whose ShowAction shows items of this form.
  const rules = kids(mdv, 'Rules');
  const ruleDefs = new Map(
    rules.flatMap((r) => kids(r, 'RuleDef')).map((d) => [attr(d, 'OID') ?? '', d] as const),
  );
  const groupItems = new Map<string, string[]>();
  for (const p of placed)
    (groupItems.get(p.groupOid) ?? groupItems.set(p.groupOid, []).get(p.groupOid)!).push(p.item.key);
  const shownByRule = new Set<string>();
  for (const assignment of rules.flatMap((r) => kids(r, 'RuleAssignment')))
    for (const ref of kids(assignment, 'RuleRef')) {
      const ruleOid = attr(ref, 'OID') ?? '';
      for (const action of kids(ref, 'ShowAction')) {
        const targets = kids(action, 'DestinationProperty').flatMap((d) => {
          const oid = attr(d, 'OID') ?? '';
          return (
            groupItems.get(oid) ??
            (keyByRef.has(oid) && itemOf.has(keyByRef.get(oid)!) ? [keyByRef.get(oid)!] : [])
          );
        });
        if (!targets.length) continue; // a rule of another form
        const expr = text(kid(ruleDefs.get(ruleOid), 'Expression'));
        const m = RULE_EXPR.exec(expr);
        const ref0 = m ? keyByRef.get(m[1]!) : undefined;
        const when = (attr(action, 'IfExpressionEvaluates') ?? 'true').toLowerCase() !== 'false';
        if (!m || !ref0 || !itemOf.has(ref0) || !when) {
          unsupported.push(
            `rule ${ruleOid}: show action when "${expr}" ${when ? '' : 'is false '}not translated`,
          );
          continue;
        }
        const value = m[3] ?? m[4] ?? m[5] ?? '';
        show(ref0, RULE_OPS[m[2]!]!, value, targets);
        for (const t of targets) {
          shownByRule.add(t);
          itemOf.get(t)!.isHide = 1;
        }
      }
    }
  for (const item of hidden)
    if (!shownByRule.has(item.key)) {
      item.isHide = 1;
      unsupported.push(
        `${placed.find((p) => p.item === item)?.oid}: hidden in the CRF (ShowItem="No") and shown by no rule of this file; imported hidden`,
      );
    }

  const pages: FormPage[] = [];
  const order = [
    ...sections.map((s) => s.label),
    ...[...bySection.keys()].filter((l) => !sections.some((s) => s.label === l)),
  ];
  for (const label of order) {
    const entries = bySection.get(label);
    const section = sections.find((s) => s.label === label);
    if (!entries?.length) continue;
    entries.sort((a, b) => a.order - b.order || a.at - b.at);
    const key = `page_${pages.length + 1}`;
    const items: FormItem[] = [];
    section?.notes.forEach((note, n) => {
      if (!note) return;
      const p = plain(note);
      if (p.script)
        unsupported.push(`section "${label}": script in its ${n ? 'instructions' : 'subtitle'} not imported`);
      if (p.text)
        items.push({ key: `${key}_${n ? 'instructions' : 'subtitle'}`, type: 'paragraph', title: p.text });
    });
    items.push(...entries.flatMap((e) => e.items));
    pages.push({ key, title: section?.title || label || formOid, items });
  }
  return { pages, showRules };
}
