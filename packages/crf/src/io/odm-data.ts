import type { Form, FormItem } from '../types.js';
import { answerItems } from '../walk.js';
import { kids, type XNode, attr as xmlAttr, text as xmlText } from '../xml.js';
import { FormImportError, refuse } from './errors.js';
import { openOdm, parseOdm } from './odm.js';
import { isRedcapMetadata } from './redcap-odm.js';

/** One change of an imported value, from the file's audit trail. */
export interface ImportedChange {
  itemKey: string;
  oldValue: unknown;
  newValue: unknown;
  reason: string;
  /** Who made it, as the file names the user (`UserRef`/`UserID`, with the AdminData name when given). */
  user: string;
  /** ISO date-time the file gives; null when it gives none. */
  at: string | null;
}

/** A record read from ClinicalData: one FormData of one subject. */
export interface ImportedRecord {
  subjectKey: string;
  /** Where in the file: study event (and repeat), to name it in faults and in the record's history. */
  where: string;
  answers: Record<string, unknown>;
  history: ImportedChange[];
}

const attr = (node: XNode | undefined, name: string) => xmlAttr(node, name)?.trim();
const kid = (node: XNode | undefined, name: string) => kids(node, name)[0];

/** The stored value of an item from the text ODM writes, or why it cannot be stored. */
export function storedValue(item: FormItem, text: string): { value: unknown } | { fault: string } {
  const codes = item.options?.map((o) => String(o.code));
  if (item.type === 'checkbox') {
    const parts = text
      .split(/[;,]/)
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = parts.filter((p) => !codes?.includes(p));
    return bad.length ? { fault: `"${bad.join(', ')}" is not a choice of ${item.key}` } : { value: parts };
  }
  if (item.type === 'radio') {
    return codes?.includes(text) ? { value: text } : { fault: `"${text}" is not a choice of ${item.key}` };
  }
  if (item.type === 'textQuestion' && (item.textType === 'number' || item.inputType === 'number')) {
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? { value: n } : { fault: `"${text}" is not a number` };
  }
  if (item.type === 'textQuestion' && item.textType === 'date')
    return /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text.slice(0, 10)))
      ? { value: text.slice(0, 10) }
      : { fault: `"${text}" is not a date (YYYY-MM-DD)` };
  if (item.type === 'textQuestion' || item.type === 'paragraph') return { value: text };
  return { fault: `values of ${item.type} items are not imported` };
}

/**
 * The records of one FormDef in a CDISC ODM file's ClinicalData (CRDP's own export, OpenClinica's
 * extract with `OpenClinica:AuditLogs`, any ODM 1.3 file with AuditRecords), for `form` — the CRDP
 * form imported from the same file's metadata, so its item keys are the ones the import gave each
 * ItemOID. A record per FormData; the value of an item is its last ItemData; each ItemData after the
 * first (TransactionType Update, or IsNull) and each OpenClinica item audit log with an old value is a
 * change in the record's history, with who, when and why. Every fault is listed (`faults`); the
 * caller stores nothing when there is one.
 */
export function readOdmClinicalData(
  xml: string,
  form: Form,
  formOid?: string,
): { formOid: string; records: ImportedRecord[]; faults: string[] } {
  // A file may hold data only (its metadata came in another file): then ItemOIDs are read as the import names them.
  const odm = parseOdm(xml);
  let file: ReturnType<typeof openOdm> | undefined;
  try {
    file = openOdm(xml);
  } catch (e) {
    if (!(e instanceof FormImportError)) throw e;
  }
  const clinical = kids(odm, 'ClinicalData');
  const formDatas = clinical.flatMap((c) =>
    kids(c, 'SubjectData').flatMap((s) =>
      kids(s, 'StudyEventData').flatMap((e) => kids(e, 'FormData').map((f) => ({ s, e, f }))),
    ),
  );
  if (!formDatas.length)
    throw refuse('content', 'ODM 文件中没有 ClinicalData 记录', 'the ODM file has no ClinicalData records');
  const present = [...new Set(formDatas.map((x) => attr(x.f, 'FormOID') ?? ''))];
  const chosen = formOid ?? (present.length === 1 ? present[0]! : undefined);
  if (!chosen)
    throw refuse(
      'formOid',
      `文件中有多个表单的数据，请指定 formOid（${present.join('、')}）`,
      `the file holds data of several forms; name one as formOid (${present.join(', ')})`,
    );
  if (!present.includes(chosen))
    throw refuse(
      'formOid',
      `文件中没有表单 "${chosen}" 的数据（有：${present.join('、')}）`,
      `the file holds no data of the form "${chosen}" (it has ${present.join(', ')})`,
    );
  // The keys the form import gave each ItemOID (and item Name) of this FormDef.
  const keys = new Map<string, string>();
  if (file?.formDefs.has(chosen)) file.build(chosen, keys);
  const items = new Map(answerItems(form).map((x) => [x.item.key, x.item]));
  // REDCap project XML: ItemOIDs are field names; a checkbox is one item per choice (var___code, 1 or 0);
  // each instrument's status field (<instrument>_complete) is REDCap's own, not a field of the form.
  const redcap = !!file && isRedcapMetadata(file.mdv);
  const keyOf = (oid: string) => {
    const k =
      keys.get(oid) ?? (/^I\.[A-Za-z_]/.test(oid) ? oid.slice(2) : oid).replace(/[^A-Za-z0-9_]/g, '_');
    return items.has(k) ? k : undefined;
  };
  // Users the AdminData names.
  const userNames = new Map<string, string>();
  for (const a of kids(odm, 'AdminData'))
    for (const u of kids(a, 'User')) {
      const oid = attr(u, 'OID') ?? '';
      const full =
        xmlText(kid(u, 'FullName')) ??
        [xmlText(kid(u, 'FirstName')), xmlText(kid(u, 'LastName'))].filter(Boolean).join(' ');
      userNames.set(oid, full && full !== oid ? `${full} (${oid})` : oid);
    }
  const who = (oid: string | undefined) => (oid ? (userNames.get(oid) ?? oid) : '');
  const auditOf = (node: XNode | undefined) => {
    const a = kid(node, 'AuditRecord');
    if (!a) return undefined;
    return {
      user: who(attr(kid(a, 'UserRef'), 'UserOID')),
      at: xmlText(kid(a, 'DateTimeStamp')) ?? null,
      reason: xmlText(kid(a, 'ReasonForChange')) ?? '',
    };
  };

  const faults: string[] = [];
  const records: ImportedRecord[] = [];
  for (const { s, e, f } of formDatas) {
    if (attr(f, 'FormOID') !== chosen) continue;
    const subjectKey = attr(s, 'SubjectKey') ?? '';
    const repeat = attr(e, 'StudyEventRepeatKey');
    const where = `${attr(e, 'StudyEventOID') ?? ''}${repeat ? `[${repeat}]` : ''}${attr(f, 'FormRepeatKey') ? `/${chosen}[${attr(f, 'FormRepeatKey')}]` : ''}`;
    const at = `${subjectKey} ${where}`;
    if (!subjectKey) faults.push(`${where}: SubjectData without a SubjectKey`);
    if (attr(f, 'TransactionType') === 'Remove' || attr(s, 'TransactionType') === 'Remove') continue;
    const answers: Record<string, unknown> = {};
    const history: ImportedChange[] = [];
    const seenGroups = new Map<string, number>();
    for (const g of kids(f, 'ItemGroupData')) {
      const goid = attr(g, 'ItemGroupOID') ?? '';
      const n = (seenGroups.get(goid) ?? 0) + 1;
      seenGroups.set(goid, n);
      if (n > 1) {
        faults.push(
          `${at}: item group ${goid} repeats (key ${attr(g, 'ItemGroupRepeatKey') ?? n}); a CRDP record holds one of each`,
        );
        continue;
      }
      const groupAudit = auditOf(g);
      for (const d of kids(g, 'ItemData')) {
        const oid = attr(d, 'ItemOID') ?? '';
        const choice = redcap ? /^(.+)___(.+)$/.exec(oid) : null;
        const box = choice ? items.get(choice[1]!) : undefined;
        if (choice && box?.type === 'checkbox') {
          const v = xmlAttr(d, 'Value') ?? '';
          const code = box.options?.find(
            (o) => String(o.code).toLowerCase() === choice[2]!.toLowerCase(),
          )?.code;
          if (code === undefined) faults.push(`${at}: ${oid}: "${choice[2]}" is not a choice of ${box.key}`);
          else if (v === '1' || v.toLowerCase() === 'checked') {
            const list = (answers[box.key] as unknown[] | undefined) ?? [];
            answers[box.key] = [...list, String(code)];
          } else if (!['0', '', 'unchecked'].includes(v.toLowerCase()))
            faults.push(`${at}: ${oid}: "${v}" is neither 1 (checked) nor 0`);
          continue;
        }
        if (redcap && /_complete$/.test(oid) && !items.has(oid)) continue;
        const key = keyOf(oid);
        if (!key) {
          faults.push(`${at}: ItemOID ${oid} is no item of the form`);
          continue;
        }
        const item = items.get(key)!;
        const isNull = attr(d, 'IsNull') === 'Yes';
        const raw = xmlAttr(d, 'Value');
        if (!isNull && (raw === undefined || raw === '')) continue;
        let value: unknown = null;
        if (!isNull) {
          const read = storedValue(item, raw!);
          if ('fault' in read) {
            faults.push(`${at}: ${oid}: ${read.fault}`);
            continue;
          }
          value = read.value;
        }
        const had = key in answers;
        const audit = auditOf(d) ?? groupAudit;
        if (had || attr(d, 'TransactionType') === 'Update')
          history.push({
            itemKey: key,
            oldValue: had ? answers[key] : null,
            newValue: value,
            reason: audit?.reason ?? '',
            user: audit?.user ?? '',
            at: audit?.at ?? null,
          });
        answers[key] = value;
        // OpenClinica: the item's audit logs; an update with an old value is a change.
        for (const log of kids(kid(d, 'AuditLogs'), 'AuditLog')) {
          const old = attr(log, 'OldValue');
          const now = attr(log, 'NewValue');
          // Only value updates: status changes (available → unavailable) and the like are not values.
          if (!/value updated/i.test(attr(log, 'Type') ?? '')) continue;
          if (old === undefined || old === '' || now === undefined) continue;
          const o = storedValue(item, old);
          const v = storedValue(item, now);
          history.push({
            itemKey: key,
            oldValue: 'value' in o ? o.value : old,
            newValue: 'value' in v ? v.value : now,
            reason: attr(log, 'ReasonForChange') ?? '',
            user: who(attr(log, 'UserID')),
            at: attr(log, 'DateTimeStamp') ?? null,
          });
        }
      }
    }
    records.push({ subjectKey, where, answers, history });
  }
  if (!records.length && !faults.length)
    faults.push(`the form ${chosen} has no records in the file other than removed ones`);
  return { formOid: chosen, records, faults };
}
