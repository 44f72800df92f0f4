import type { Form, ShowRule } from '../types.js';
import { isOff } from '../values.js';
import { answerItems, isItem, walkForm } from '../walk.js';
import { cellText, type ExportColumn, exportColumns } from './columns.js';
import { CRDP_CONTEXT, conditionText, methodText, termText } from './odm-expr.js';

/**
 * The CDISC ODM 1.3.2 writer: a form's metadata (items, code lists, range checks, show rules as
 * ConditionDefs, computed items as MethodDefs) and its records' clinical data, with the audit trail
 * of each record when asked. Pure: the server reads the rows and streams what this writes.
 *
 * CRDP's extensions stay inside ODM's own hooks, so a file validates against the plain ODM 1.3.2
 * schema: `Alias Context="crdp:…"`, `FormalExpression Context="crdp"` and the `CL.CRDP.*` code lists
 * of the record status flag (README, "CDISC ODM 1.3.2").
 */

/** The namespace of CRDP's ODM extensions, declared on the root element. */
export const CRDP_ODM_NAMESPACE = 'urn:crdp:odm:1';
/** Alias contexts: the item type ODM has no word for, and a page's own key. */
export const ALIAS_ITEM_TYPE = 'crdp:itemType';
export const ALIAS_KEY = 'crdp:key';
export const RECORD_STATUS_LIST = 'CL.CRDP.RecordStatus';
export const FLAG_TYPE_LIST = 'CL.CRDP.FlagType';
export const RECORD_STATUSES = ['draft', 'submitted', 'verified', 'locked', 'deleted'] as const;

// XML 1.0 has no place for most control characters (nor lone surrogates, U+FFFE/U+FFFF): they are
// dropped. Tab, line feed and carriage return are written as character references, which a reader
// keeps (a literal one in an attribute becomes a space under attribute-value normalisation).
function keep(c: string): boolean {
  const n = c.codePointAt(0)!;
  if (n < 0x20) return n === 0x09 || n === 0x0a || n === 0x0d;
  return n <= 0xd7ff || (n >= 0xe000 && n <= 0xfffd) || n >= 0x10000;
}
/** Text for an XML attribute value or element content. */
export function xmlEscape(s: string): string {
  return Array.from(s)
    .filter(keep)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
const xml = xmlEscape;
export const odmOid = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
const itemOid = (c: ExportColumn) => `I.${odmOid(c.name)}`;

function dataType(item: ExportColumn['item']): string {
  if (item.fxTopicData) return 'float';
  const t = `${item.textType ?? ''} ${item.inputType ?? ''}`.toLowerCase();
  if (item.type === 'textQuestion' && t.includes('number')) return 'float';
  if (item.type === 'textQuestion' && t.includes('date')) return 'date';
  if (item.type === 'score' && !item.options?.length) return 'float';
  return 'text';
}

const toKeys = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? v.split(',').map((s) => s.trim()) : [];

/** Every show rule of the form (form-level and item-level), as the engine reads them. */
function showRules(form: Form): { rule: ShowRule; indicator: string }[] {
  const out = (form.showRules ?? []).map((rule) => ({ rule, indicator: rule.indicatorName ?? '' }));
  for (const { item } of answerItems(form))
    if (item.showRules && !isOff(item.ShowItemRelationFlg))
      for (const rule of item.showRules) out.push({ rule, indicator: rule.indicatorName || item.key });
  return out;
}

export interface OdmMetadata {
  xml: string;
  /** The ItemGroup (page number, 1-based) of each exported column. */
  pages: Map<number, ExportColumn[]>;
}

/**
 * The MetaDataVersion of a form: a StudyEvent, the FormDef, an ItemGroupDef per page, an ItemDef
 * per column, code lists, show rules as collection exception conditions (ItemRef and ItemGroupRef)
 * and computed items as methods; with `audit`, the code lists of the record status flag.
 */
export function odmMetadata(
  form: Form,
  o: { formName: string; formOid: string; mdv: string; audit: boolean },
): OdmMetadata {
  const cols = exportColumns(form);
  const pages = new Map<number, ExportColumn[]>();
  const pageOf = new Map(answerItems(form).map((x) => [x.item.key, x.page + 1]));
  for (const c of cols) {
    const p = pageOf.get(c.item.key) ?? 1;
    pages.set(p, [...(pages.get(p) ?? []), c]);
  }
  const oidsOfItem = new Map<string, string[]>();
  for (const c of cols) oidsOfItem.set(c.item.key, [...(oidsOfItem.get(c.item.key) ?? []), itemOid(c)]);
  const pageNumber = new Map<string, number>();
  form.pages.forEach((p, i) => {
    if (typeof p.key === 'string' && p.key && pages.has(i + 1)) pageNumber.set(p.key, i + 1);
  });

  // A container's key (a group, a panel) stands for the items inside it.
  const inside = new Map<string, string[]>();
  walkForm(form, (el, at) => {
    if (!isItem(el)) return;
    for (const c of at.parents)
      if (typeof c.key === 'string' && c.key) inside.set(c.key, [...(inside.get(c.key) ?? []), el.key]);
  });

  // Show rules, by target: an ItemRef (each column of an item) or an ItemGroupRef (a page).
  const byTarget = new Map<string, string[]>();
  const add = (target: string, term: string) => {
    const list = byTarget.get(target) ?? [];
    if (!list.includes(term)) list.push(term);
    byTarget.set(target, list);
  };
  for (const { rule, indicator } of showRules(form)) {
    const ref = oidsOfItem.get(indicator)?.[0];
    if (!ref) continue;
    const term = termText({ ref, condition: String(rule.condition), value: rule.indicatorVal });
    if (!term) continue;
    for (const key of [...toKeys(rule.selectItems), ...toKeys(rule.selectPanel)]) {
      for (const item of oidsOfItem.has(key) ? [key] : (inside.get(key) ?? []))
        for (const t of oidsOfItem.get(item) ?? []) add(t, term);
      const p = pageNumber.get(key);
      if (p) add(`IG.P${p}`, term);
    }
  }
  const conditionOid = (target: string) => (byTarget.has(target) ? `C.${target}` : undefined);

  const out: string[] = [];
  out.push(`<MetaDataVersion OID="${o.mdv}" Name="${o.mdv}">`);
  out.push('<Protocol><StudyEventRef StudyEventOID="SE.CRF" OrderNumber="1" Mandatory="Yes"/></Protocol>');
  out.push(
    `<StudyEventDef OID="SE.CRF" Name="CRF" Repeating="Yes" Type="Common"><FormRef FormOID="${o.formOid}" OrderNumber="1" Mandatory="Yes"/></StudyEventDef>`,
  );
  out.push(`<FormDef OID="${o.formOid}" Name="${xml(o.formName)}" Repeating="Yes">`);
  for (const p of pages.keys()) {
    const cond = conditionOid(`IG.P${p}`);
    out.push(
      `<ItemGroupRef ItemGroupOID="IG.P${p}" Mandatory="Yes"${cond ? ` CollectionExceptionConditionOID="${cond}"` : ''}/>`,
    );
  }
  out.push('</FormDef>');
  for (const [p, list] of pages) {
    const page = form.pages[p - 1];
    const title = page?.title ?? `Page ${p}`;
    out.push(`<ItemGroupDef OID="IG.P${p}" Name="${xml(title)}" Repeating="No">`);
    list.forEach((c, i) => {
      const required = c.item.isRequired === true || c.item.isRequired === 1 || c.item.isRequired === '1';
      const cond = conditionOid(itemOid(c));
      const method = c.item.fxTopicData && !isOff(c.item.fxRadio) ? `M.${itemOid(c)}` : undefined;
      out.push(
        `<ItemRef ItemOID="${itemOid(c)}" OrderNumber="${i + 1}" Mandatory="${required ? 'Yes' : 'No'}"${cond ? ` CollectionExceptionConditionOID="${cond}"` : ''}${method ? ` MethodOID="${method}"` : ''}/>`,
      );
    });
    if (typeof page?.key === 'string' && page.key)
      out.push(`<Alias Context="${ALIAS_KEY}" Name="${xml(page.key)}"/>`);
    out.push('</ItemGroupDef>');
  }
  const codeLists: string[] = [];
  const methods: string[] = [];
  for (const c of cols) {
    const options = c.item.type === 'matrix' ? c.item.columns : c.item.options;
    const multi = c.item.type === 'checkbox' || c.item.typeQ === 'multi' || c.item.forM === 'checkbox';
    const hasList = !!options?.length && c.item.forM !== 'input';
    // Decimals, text length and numeric bounds of a whole item (not of its blanks or rows).
    const whole = c.name === c.item.key;
    const type = dataType(c.item);
    const fixed = whole && c.item.fixed != null && c.item.fixed !== '' ? Number(c.item.fixed) : Number.NaN;
    const maxNub =
      whole && c.item.maxNub != null && c.item.maxNub !== '' ? Number(c.item.maxNub) : Number.NaN;
    const exact = type === 'float' && fixed === 0 ? 'integer' : type;
    const size =
      exact === 'float' && Number.isInteger(fixed) && fixed > 0
        ? ` SignificantDigits="${fixed}"`
        : exact === 'text' && !hasList && Number.isInteger(maxNub) && maxNub > 0
          ? ` Length="${maxNub}"`
          : '';
    out.push(`<ItemDef OID="${itemOid(c)}" Name="${xml(c.name)}" DataType="${exact}"${size}>`);
    out.push(`<Question><TranslatedText xml:lang="zh-CN">${xml(c.label)}</TranslatedText></Question>`);
    if (whole && (exact === 'float' || exact === 'integer'))
      for (const [bound, cmp] of [
        [c.item.minVal, 'GE'],
        [c.item.maxVal, 'LE'],
      ] as const)
        if (bound != null && bound !== '' && Number.isFinite(Number(bound)))
          out.push(
            `<RangeCheck Comparator="${cmp}" SoftHard="Hard"><CheckValue>${Number(bound)}</CheckValue></RangeCheck>`,
          );
    if (hasList) out.push(`<CodeListRef CodeListOID="CL.${odmOid(c.name)}"/>`);
    // Several codes in one value: ODM has no such item, so the Alias says so (values are "a; b").
    if (hasList && multi) out.push(`<Alias Context="${ALIAS_ITEM_TYPE}" Name="checkbox"/>`);
    else if (hasList && c.item.type === 'radio' && c.item.typeQ === 'select')
      out.push(`<Alias Context="${ALIAS_ITEM_TYPE}" Name="select"/>`);
    out.push('</ItemDef>');
    if (hasList) {
      codeLists.push(`<CodeList OID="CL.${odmOid(c.name)}" Name="${xml(c.name)}" DataType="text">`);
      for (const opt of options!)
        codeLists.push(
          `<CodeListItem CodedValue="${xml(String(opt.code))}"><Decode><TranslatedText xml:lang="zh-CN">${xml(opt.name)}</TranslatedText></Decode></CodeListItem>`,
        );
      codeLists.push('</CodeList>');
    }
    const calc = c.item.fxTopicData;
    if (calc && !isOff(c.item.fxRadio)) {
      const ref = (key: unknown) =>
        typeof key === 'string' && key ? (oidsOfItem.get(key)?.[0] ?? key) : undefined;
      const xy = calc.xyValue;
      const expr = methodText({
        func: String(calc.func || calc.compulateType || ''),
        fields: toKeys(calc.fields).map((k) => ref(k)!),
        x: ref(Array.isArray(xy) ? xy[0] : xy?.x),
        y: ref(Array.isArray(xy) ? xy[1] : xy?.y),
        compare: calc.compare,
      });
      methods.push(
        `<MethodDef OID="M.${itemOid(c)}" Name="${xml(`${c.name} = ${String(calc.func || calc.compulateType || '')}`)}" Type="Computation"><Description><TranslatedText xml:lang="en">${xml(expr)}</TranslatedText></Description><FormalExpression Context="${CRDP_CONTEXT}">${xml(expr)}</FormalExpression></MethodDef>`,
      );
    }
  }
  if (o.audit) {
    codeLists.push(`<CodeList OID="${RECORD_STATUS_LIST}" Name="CRDP record status" DataType="text">`);
    for (const s of RECORD_STATUSES) codeLists.push(`<EnumeratedItem CodedValue="${s}"/>`);
    codeLists.push('</CodeList>');
    codeLists.push(
      `<CodeList OID="${FLAG_TYPE_LIST}" Name="CRDP flag type" DataType="text"><EnumeratedItem CodedValue="RecordStatus"/></CodeList>`,
    );
  }
  // In form order (items, then pages), whatever order the rules were written in.
  const order = [...cols.map(itemOid), ...[...pages.keys()].map((p) => `IG.P${p}`)];
  const conditions = order
    .filter((t) => byTarget.has(t))
    .map((target) => {
      const terms = byTarget.get(target)!;
      const expr = conditionText(terms);
      return `<ConditionDef OID="C.${target}" Name="${xml(`show ${target}`)}"><Description><TranslatedText xml:lang="en">${xml(`${target} is collected only when ${terms.join(' or ')}`)}</TranslatedText></Description><FormalExpression Context="${CRDP_CONTEXT}">${xml(expr)}</FormalExpression></ConditionDef>`;
    });
  out.push(...codeLists, ...conditions, ...methods, '</MetaDataVersion>');
  return { xml: out.join('\n'), pages };
}

// ---------------------------------------------------------------------------------------------
// Clinical data and its audit trail

export interface OdmRecord {
  id: number;
  subjectKey: string;
  /** draft | submitted | verified | locked */
  status: string;
  answers: Record<string, unknown>;
  createdAt: Date;
  createdBy: number | null;
  createdByName: string;
  deleted?: { at: Date; userId: number | null; userName: string; reason: string } | null;
}

/** A row of a record's history: an item's change, or a record event (`@submit`, `@verify`, …). */
export interface OdmChange {
  id: number;
  itemKey: string;
  oldValue: unknown;
  newValue: unknown;
  reason: string;
  userId: number | null;
  userName: string;
  changedAt: Date;
}

/** A user's OID: by account id, else (a free link, a system) by a hash of the name written. */
export function odmUserOid(userId: number | null, name: string): string {
  if (userId != null) return `U.${userId}`;
  let h = 0x811c9dc5;
  for (const ch of name) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `U.X${h.toString(16)}`;
}

/** AdminData: the users the audit records name and the location (the app) they worked in. */
export function odmAdminData(
  studyOid: string,
  users: { userId: number | null; name: string }[],
  location: { oid: string; name: string; mdv: string; effectiveDate: string },
): string {
  const seen = new Map<string, string>();
  for (const u of users) seen.set(odmUserOid(u.userId, u.name), u.name);
  const out = [`<AdminData StudyOID="${studyOid}">`];
  for (const [oid, name] of seen)
    out.push(
      `<User OID="${oid}"><FullName>${xml(name || oid)}</FullName><LocationRef LocationOID="${location.oid}"/></User>`,
    );
  out.push(
    `<Location OID="${location.oid}" Name="${xml(location.name)}" LocationType="Site"><MetaDataVersionRef StudyOID="${studyOid}" MetaDataVersionOID="${location.mdv}" EffectiveDate="${location.effectiveDate}"/></Location>`,
    '</AdminData>',
  );
  return out.join('\n');
}

interface Audit {
  userId: number | null;
  userName: string;
  at: Date;
  reason?: string | undefined;
  source: string;
}

function auditRecord(a: Audit, location: string): string {
  const reason = a.reason?.trim();
  return `<AuditRecord><UserRef UserOID="${odmUserOid(a.userId, a.userName)}"/><LocationRef LocationOID="${location}"/><DateTimeStamp>${a.at.toISOString()}</DateTimeStamp>${reason ? `<ReasonForChange>${xml(reason)}</ReasonForChange>` : ''}<SourceID>${a.source}</SourceID></AuditRecord>`;
}

const fromChange = (c: OdmChange): Audit => ({
  userId: c.userId,
  userName: c.userName,
  at: c.changedAt,
  reason: c.reason,
  source: `crf_record_changes.${c.id}`,
});

/**
 * One record as SubjectData. Without `audit`, the current values only (a snapshot). With it, the
 * record's status as TransactionType and a status flag, the AuditRecord of its last record event on
 * FormData, and each changed value's history in order: the value it was submitted with, then one
 * ItemData per change with who, when and why (its AuditRecord; the latest on the ItemGroupData).
 */
export function odmSubjectData(
  rec: OdmRecord,
  changes: OdmChange[],
  o: { formOid: string; pages: Map<number, ExportColumn[]>; audit: boolean; locationOid: string },
): string {
  const out: string[] = [];
  const { audit, locationOid } = o;
  const sorted = [...changes].sort((a, b) => a.id - b.id);
  const events = sorted.filter((c) => c.itemKey.startsWith('@'));
  const byItem = new Map<string, OdmChange[]>();
  for (const c of sorted)
    if (!c.itemKey.startsWith('@')) byItem.set(c.itemKey, [...(byItem.get(c.itemKey) ?? []), c]);
  const created: Audit = {
    userId: rec.createdBy,
    userName: rec.createdByName,
    at: rec.createdAt,
    source: `crf_records.${rec.id}`,
  };
  const submit = events.find((e) => e.itemKey === '@submit');
  const lastEvent = events[events.length - 1];
  const status = rec.deleted ? 'deleted' : rec.status;
  const transaction = rec.deleted ? 'Remove' : byItem.size ? 'Update' : 'Insert';

  out.push(
    `<SubjectData SubjectKey="${xml(rec.subjectKey)}"><StudyEventData StudyEventOID="SE.CRF" StudyEventRepeatKey="${rec.id}">`,
  );
  if (!audit) out.push(`<FormData FormOID="${o.formOid}" FormRepeatKey="${rec.id}">`);
  else {
    const formAudit: Audit = lastEvent
      ? fromChange(lastEvent)
      : rec.deleted
        ? {
            userId: rec.deleted.userId,
            userName: rec.deleted.userName,
            at: rec.deleted.at,
            reason: rec.deleted.reason,
            source: `crf_records.${rec.id}`,
          }
        : created;
    out.push(
      `<FormData FormOID="${o.formOid}" FormRepeatKey="${rec.id}" TransactionType="${transaction}">`,
      auditRecord(formAudit, locationOid),
      `<Annotation SeqNum="1"><Flag><FlagValue CodeListOID="${RECORD_STATUS_LIST}">${status}</FlagValue><FlagType CodeListOID="${FLAG_TYPE_LIST}">RecordStatus</FlagType></Flag></Annotation>`,
    );
  }
  for (const [p, list] of o.pages) {
    const lines: string[] = [];
    let latest: OdmChange | undefined;
    for (const c of list) {
      const current = cellText(c.item, c.read(rec.answers), false);
      const history = audit ? (byItem.get(c.item.key) ?? []) : [];
      const cell = (v: unknown) => cellText(c.item, c.read({ [c.item.key]: v }), false);
      const steps = history.filter((h) => cell(h.oldValue) !== cell(h.newValue));
      if (!steps.length) {
        if (current !== '') lines.push(`<ItemData ItemOID="${itemOid(c)}" Value="${xml(current)}"/>`);
        continue;
      }
      const first = cell(steps[0]!.oldValue);
      if (first !== '')
        lines.push(
          `<ItemData ItemOID="${itemOid(c)}" TransactionType="Insert" Value="${xml(first)}">${auditRecord(submit ? fromChange(submit) : created, locationOid)}</ItemData>`,
        );
      let last = first;
      for (const h of steps) {
        const v = cell(h.newValue);
        lines.push(
          `<ItemData ItemOID="${itemOid(c)}" TransactionType="Update" ${v === '' ? 'IsNull="Yes"' : `Value="${xml(v)}"`}>${auditRecord(fromChange(h), locationOid)}</ItemData>`,
        );
        last = v;
        if (!latest || h.id > latest.id) latest = h;
      }
      // History kept only in part (a record changed before its history existed): the value as it is.
      if (last !== current)
        lines.push(
          `<ItemData ItemOID="${itemOid(c)}" TransactionType="Update" ${current === '' ? 'IsNull="Yes"' : `Value="${xml(current)}"`}/>`,
        );
    }
    if (!lines.length) continue;
    out.push(
      `<ItemGroupData ItemGroupOID="IG.P${p}"${latest ? ' TransactionType="Update"' : ''}>`,
      ...(latest ? [auditRecord(fromChange(latest), locationOid)] : []),
      ...lines,
      '</ItemGroupData>',
    );
  }
  out.push('</FormData></StudyEventData></SubjectData>');
  return out.join('\n');
}
