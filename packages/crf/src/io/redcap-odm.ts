import type { Form, FormItem, ShowRule } from '../types.js';
import { answerItems } from '../walk.js';
import { kids, type XNode, attr as xmlAttr, text as xmlText } from '../xml.js';
import { fromRedcap } from './redcap.js';

/**
 * A REDCap project XML (CDISC ODM 1.3.1 with `redcap:` attributes) read through the REDCap data
 * dictionary import: each field of a FormDef becomes the dictionary row REDCap would have written
 * for it (variable, form, section header, field type, label, choices or calculation, note,
 * validation, min/max, identifier, branching logic, required, alignment, question number, matrix
 * group, matrix ranking, field annotation), so branching logic, calculations and field types are
 * translated by that one translator (`fromRedcap`) and what it cannot translate is reported by it.
 * REDCap's one item per checkbox choice (`var___code`, Checked/Unchecked) is one checkbox field again.
 */

const attr = (node: XNode | undefined, name: string) => xmlAttr(node, name)?.trim() ?? '';
const kid = (node: XNode | undefined, name: string) => kids(node, name)[0];
const label = (node: XNode | undefined) =>
  kids(node, 'TranslatedText')
    .map((t) => xmlText(t) ?? '')
    .find(Boolean) ?? '';

/** Whether a MetaDataVersion was written by REDCap (its fields carry `redcap:Variable` and `redcap:FieldType`). */
export function isRedcapMetadata(mdv: XNode | undefined): boolean {
  return (
    xmlAttr(mdv, 'RecordIdField') !== undefined ||
    kids(mdv, 'ItemDef').some(
      (d) => xmlAttr(d, 'Variable') !== undefined && xmlAttr(d, 'FieldType') !== undefined,
    )
  );
}

// REDCap's XML names two field types and two validations as its database does, not as its dictionary.
const FIELD_TYPES: Record<string, string> = { textarea: 'notes', select: 'dropdown' };
const VALIDATIONS: Record<string, string> = { int: 'integer', float: 'number' };

/** The columns of a REDCap data dictionary (its CSV export), in REDCap's order. */
export const REDCAP_HEADER = [
  'Variable / Field Name',
  'Form Name',
  'Section Header',
  'Field Type',
  'Field Label',
  'Choices, Calculations, OR Slider Labels',
  'Field Note',
  'Text Validation Type OR Show Slider Number',
  'Text Validation Min',
  'Text Validation Max',
  'Identifier?',
  'Branching Logic (Show field only if...)',
  'Required Field?',
  'Custom Alignment',
  'Question Number (surveys only)',
  'Matrix Group Name',
  'Matrix Ranking?',
  'Field Annotation',
] as const;

/** The data dictionary rows (header first) of one FormDef, and the fields left out on purpose. */
export function redcapRows(
  mdv: XNode,
  formDef: XNode,
): { rows: string[][]; skipped: string[]; checkboxes: number } {
  const byOid = (name: string) => new Map(kids(mdv, name).map((n) => [attr(n, 'OID'), n]));
  const groups = byOid('ItemGroupDef');
  const items = byOid('ItemDef');
  const codeLists = byOid('CodeList');
  const formName = attr(formDef, 'FormName') || attr(formDef, 'Name') || attr(formDef, 'OID');
  const rows: string[][] = [[...REDCAP_HEADER]];
  const skipped: string[] = [];
  const done = new Set<string>();
  let checkboxes = 0;
  for (const gref of kids(formDef, 'ItemGroupRef')) {
    for (const iref of kids(groups.get(attr(gref, 'ItemGroupOID')), 'ItemRef')) {
      const oid = attr(iref, 'ItemOID');
      const def = items.get(oid);
      if (!def) {
        skipped.push(`${oid}: ItemRef to an ItemDef that is not defined`);
        continue;
      }
      const variable = attr(def, 'Variable') || attr(iref, 'Variable') || attr(def, 'Name') || oid;
      const type = attr(def, 'FieldType');
      if (done.has(variable)) continue;
      done.add(variable);
      if (!type) {
        // REDCap's own columns: the data access group, and the like.
        skipped.push(`${variable}: REDCap system field, not a field of the instrument`);
        continue;
      }
      if (variable === `${formName}_complete` && attr(def, 'SectionHeader') === 'Form Status') {
        skipped.push(`${variable}: REDCap form status (Incomplete/Unverified/Complete) not imported`);
        continue;
      }
      const list = codeLists.get(attr(kid(def, 'CodeListRef'), 'CodeListOID'));
      let choices = '';
      if (type === 'checkbox') {
        checkboxes++;
        // Every choice is in the list's CheckboxChoices; without it, the codes of the `var___code` items.
        choices =
          attr(list, 'CheckboxChoices') ||
          kids(mdv, 'ItemDef')
            .filter((d) => attr(d, 'Variable') === variable)
            .map((d) => attr(d, 'OID').slice(variable.length + 3))
            .map((code) => `${code}, ${code}`)
            .join(' | ');
      } else if (type === 'calc') choices = attr(def, 'Calculation');
      else if (type === 'slider') choices = attr(def, 'SliderLabels');
      else if (list && type !== 'yesno' && type !== 'truefalse')
        choices = kids(list, 'CodeListItem')
          .map((c) => `${attr(c, 'CodedValue')}, ${label(kid(c, 'Decode')) || attr(c, 'CodedValue')}`)
          .join(' | ');
      const range = (cmp: string) =>
        xmlText(
          kid(
            kids(def, 'RangeCheck').find((r) => attr(r, 'Comparator') === cmp),
            'CheckValue',
          ),
        ) ?? '';
      const validation = attr(def, 'TextValidationType');
      rows.push([
        variable,
        formName,
        attr(def, 'SectionHeader'),
        FIELD_TYPES[type] ?? type,
        label(kid(def, 'Question')),
        choices,
        attr(def, 'FieldNote'),
        VALIDATIONS[validation] ?? validation,
        range('GE'),
        range('LE'),
        attr(def, 'Identifier'),
        attr(def, 'BranchingLogic'),
        attr(def, 'RequiredField'),
        attr(def, 'CustomAlignment'),
        attr(def, 'QuestionNumber'),
        attr(def, 'MatrixGroupName'),
        attr(def, 'MatrixRanking'),
        attr(def, 'FieldAnnotation'),
      ]);
    }
  }
  return { rows, skipped, checkboxes };
}

/**
 * One FormDef of a REDCap project XML as a CRDP form, through the data dictionary import. Show rules
 * on fields of other instruments (not in this form) are left out and reported.
 */
export function fromRedcapOdm(mdv: XNode, formDef: XNode): { form: Form; unsupported: string[] } {
  const { rows, skipped } = redcapRows(mdv, formDef);
  const { form, unsupported } = fromRedcap(rows);
  const keys = new Set(answerItems(form).map((x) => x.item.key));
  // A field shown by a field of another instrument: all its rules go (an `or` without one of its
  // tests would hide it too often), it stays visible, and the report says so.
  const targets = (r: ShowRule) => [r.selectItems ?? []].flat();
  const orphaned = new Map<string, Set<string>>();
  for (const rule of form.showRules ?? [])
    if (!keys.has(rule.indicatorName ?? ''))
      for (const target of targets(rule))
        orphaned.set(target, (orphaned.get(target) ?? new Set()).add(rule.indicatorName ?? ''));
  for (const [target, fields] of orphaned)
    unsupported.push(
      `${target}: branching logic on ${[...fields].join(', ')}, ${fields.size > 1 ? 'fields' : 'a field'} of another instrument, not translated`,
    );
  const kept = (form.showRules ?? []).filter((r) => !targets(r).some((t) => orphaned.has(t)));
  for (const { item } of answerItems(form)) if (orphaned.has(item.key)) delete (item as FormItem).isHide;
  form.showRules = kept;
  form.title = attr(formDef, 'Name') || attr(formDef, 'OID');
  return { form, unsupported: [...skipped, ...unsupported] };
}
