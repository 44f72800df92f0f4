import type { Form } from '../types.js';
import { answerItems } from '../walk.js';
import { refuse } from './errors.js';
import { type ImportedRecord, storedValue } from './odm-data.js';

/** Columns of a REDCap records export that are REDCap's own, not fields of the form. */
const SYSTEM =
  /^(redcap_event_name|redcap_repeat_instrument|redcap_repeat_instance|redcap_data_access_group|redcap_survey_identifier|redcap_survey_timestamp)$|_timestamp$/;

/**
 * A REDCap "records" CSV export (raw values; flat: a column per field, a column per checkbox
 * choice `var___code` with 1 or 0, a row per record and event or repeat instance) as records of the
 * form imported from the project's data dictionary. The first column is the record ID: the
 * record's SubjectKey. REDCap's own columns (event, repeat instrument and instance, data access
 * group, survey identifier and timestamps, each instrument's `<instrument>_complete` status) are
 * not fields; a row with no field value (an event where nothing was entered) is no record. A file
 * field's value is only a marker of the file, which the export does not hold: left out and noted. Every
 * fault is listed (an unknown column, a value that is not a choice, a number or a date); the caller
 * stores nothing when there is one.
 */
export function readRedcapRecords(
  rows: string[][],
  form: Form,
): { records: ImportedRecord[]; faults: string[]; notes: string[] } {
  if (rows.length < 2)
    throw refuse(
      'content',
      'REDCap 记录文件至少要有表头和一行记录',
      'a REDCap records file needs a header and at least one record',
    );
  const header = rows[0]!.map((h) => h.trim());
  const items = new Map(answerItems(form).map((x) => [x.item.key, x.item]));
  const faults: string[] = [];
  const notes: string[] = [];
  type Column =
    | { kind: 'skip' }
    | { kind: 'item'; key: string }
    | { kind: 'choice'; key: string; code: string };
  const columns: Column[] = header.map((name, i) => {
    if (i === 0 || SYSTEM.test(name)) return { kind: 'skip' };
    const choice = /^(.+)___(.+)$/.exec(name);
    const box = choice ? items.get(choice[1]!) : undefined;
    if (choice && box?.type === 'checkbox') {
      // REDCap writes the codes in lower case in the column names.
      const code = box.options?.find((o) => String(o.code).toLowerCase() === choice[2]!.toLowerCase())?.code;
      if (code === undefined) {
        faults.push(`column ${i + 1} "${name}": "${choice[2]}" is not a choice of ${box.key}`);
        return { kind: 'skip' };
      }
      return { kind: 'choice', key: box.key, code: String(code) };
    }
    if (items.has(name)) return { kind: 'item', key: name };
    if (/_complete$/.test(name)) return { kind: 'skip' };
    faults.push(`column ${i + 1} "${name}" is no field of the form`);
    return { kind: 'skip' };
  });
  const event = header.indexOf('redcap_event_name');
  const instrument = header.indexOf('redcap_repeat_instrument');
  const instance = header.indexOf('redcap_repeat_instance');
  const idItem = items.get(header[0]!);

  const records: ImportedRecord[] = [];
  rows.slice(1).forEach((row, n) => {
    const subjectKey = (row[0] ?? '').trim();
    const where = [
      event >= 0 ? row[event] : '',
      instrument >= 0 && row[instrument] ? `${row[instrument]}[${row[instance] ?? ''}]` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const at = `row ${n + 1} (record ${subjectKey || '?'}${where ? ` ${where}` : ''})`;
    if (!subjectKey) {
      faults.push(`${at}: no record ID in column 1 "${header[0]}"`);
      return;
    }
    const answers: Record<string, unknown> = {};
    let any = false;
    columns.forEach((c, i) => {
      const v = (row[i] ?? '').trim();
      if (c.kind === 'skip' || v === '') return;
      if (c.kind === 'choice') {
        if (v === '1' || v.toLowerCase() === 'checked') {
          answers[c.key] = [...((answers[c.key] as string[] | undefined) ?? []), c.code];
          any = true;
        } else if (v !== '0' && v.toLowerCase() !== 'unchecked')
          faults.push(`${at}: column "${header[i]}": "${v}" is neither 1 (checked) nor 0`);
        return;
      }
      const item = items.get(c.key)!;
      // A file field's value in the export is a marker ("[document]"): the file itself is not in it.
      if (item.type === 'upload') {
        notes.push(`${at}: ${c.key}: file "${v}" left out (the records export does not hold the file)`);
        return;
      }
      const read = storedValue(item, v);
      if ('fault' in read) faults.push(`${at}: ${c.key}: ${read.fault}`);
      else {
        answers[c.key] = read.value;
        any = true;
      }
    });
    if (!any) return;
    // The record ID is a field of the form too (REDCap's first field).
    if (idItem && !(idItem.key in answers)) {
      const read = storedValue(idItem, subjectKey);
      if ('value' in read) answers[idItem.key] = read.value;
    }
    records.push({ subjectKey, where: where || `row ${n + 1}`, answers, history: [] });
  });
  if (!records.length && !faults.length)
    faults.push('the file holds no record with a value of a field of the form');
  return { records, faults, notes };
}
