import { type Hl7Field, Hl7Message, Hl7Segment, parseHl7DateTime } from '@medplum/core';
import type { Bilingual } from '../../http/errors.js';
import { bilingual } from '../../http/errors.js';

/**
 * HL7 v2 messages as the listener reads them: the parse is @medplum/core's `Hl7Message`; this
 * file only reads fields (unescaping text), turns HL7 timestamps into ISO 8601 (a timestamp
 * without a zone is Beijing time) and builds the ACK/NAK replies.
 */

/** A message refused before it is stored (AR) or that cannot be stored (AE), with its reason. */
export class Hl7Refusal extends Error {
  constructor(
    readonly code: 'AR' | 'AE',
    /** HL7 table 0357: 100 segment sequence, 101 required field missing, 102 data type, 207 application error. */
    readonly errorCode: '100' | '101' | '102' | '207',
    readonly reason: Bilingual,
  ) {
    super(reason['en-US']);
  }
}

/** A field that makes a stored message impossible to load into the CDR. */
export class Hl7MappingError extends Error {
  constructor(
    readonly field: string,
    readonly reason: Bilingual,
  ) {
    super(reason['en-US']);
  }
}

const ESCAPES: Record<string, string> = { F: '|', S: '^', T: '&', R: '~', E: '\\', '.br': ' ' };

/** A component's text with the HL7 escapes (\F\ \S\ \T\ \R\ \E\ \.br\) resolved, trimmed. */
export function unescapeText(s: string | undefined): string {
  if (!s) return '';
  return s
    .replace(/\\(F|S|T|R|E|\.br)\\/g, (_, k: string) => ESCAPES[k] ?? '')
    .replace(/\\X[0-9A-Fa-f]*\\/g, '')
    .trim();
}

/** Text for an HL7 field of a reply (the separators escaped, at most `max` characters). */
export function escapeText(s: string, max = 200): string {
  return s
    .slice(0, max)
    .replace(/\\/g, '\\E\\')
    .replace(/\|/g, '\\F\\')
    .replace(/\^/g, '\\S\\')
    .replace(/&/g, '\\T\\')
    .replace(/~/g, '\\R\\')
    .replace(/[\r\n]/g, ' ');
}

/** Component `c` (1-based) of repetition `rep` (0-based) of a field, unescaped. */
export const comp = (f: Hl7Field | undefined, c = 1, rep = 0) => unescapeText(f?.getComponent(c, 0, rep));

/** How many repetitions a field has. */
export const repetitions = (f: Hl7Field | undefined) => f?.components.length ?? 0;

/** The message's control id (MSH-10) and type (MSH-9 as `ADT^A01`). */
export function headerOf(m: Hl7Message) {
  const msh = m.getSegment('MSH');
  const controlId = comp(msh?.getField(10));
  const type = [comp(msh?.getField(9), 1), comp(msh?.getField(9), 2)].filter(Boolean).join('^');
  return { controlId, type };
}

const TS = /^(\d{4})(\d{2})(\d{2})(\d{2}(\d{2}(\d{2}(\.\d{1,4})?)?)?)?([+-]\d{4})?$/;

/**
 * An HL7 DTM (YYYYMMDD[HH[MM[SS[.S]]]][+/-ZZZZ]) as ISO 8601 in UTC; without a zone it is
 * Beijing time. '' for an empty field; a Hl7MappingError naming `field` for a wrong one.
 */
export function isoTime(value: string, field: string): string {
  if (!value) return '';
  const m = TS.exec(value);
  if (!m || !realDate(m[1]!, m[2]!, m[3]!) || !realTime(m[4] ?? ''))
    throw new Hl7MappingError(
      field,
      bilingual(`${field} 不是有效的 HL7 时间：${value}`, `${field} is not a valid HL7 time: ${value}`),
    );
  const iso = parseHl7DateTime(value, { tzOffset: '+0800' });
  if (!iso || Number.isNaN(Date.parse(iso)))
    throw new Hl7MappingError(
      field,
      bilingual(`${field} 不是有效的 HL7 时间：${value}`, `${field} is not a valid HL7 time: ${value}`),
    );
  return iso;
}

/** An HL7 date (the first 8 digits of a DT/DTM) as YYYY-MM-DD, '' when empty. */
export function isoDate(value: string, field: string): string {
  if (!value) return '';
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value);
  if (!m || !realDate(m[1]!, m[2]!, m[3]!))
    throw new Hl7MappingError(
      field,
      bilingual(`${field} 不是有效的日期：${value}`, `${field} is not a valid date: ${value}`),
    );
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function realDate(y: string, mo: string, d: string) {
  const t = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return (
    t.getUTCFullYear() === Number(y) && t.getUTCMonth() === Number(mo) - 1 && t.getUTCDate() === Number(d)
  );
}

function realTime(hms: string) {
  const h = hms.slice(0, 2);
  const mi = hms.slice(2, 4);
  const s = hms.slice(4, 6);
  return (!h || Number(h) < 24) && (!mi || Number(mi) < 60) && (!s || Number(s) < 60);
}

const stamp = () => {
  // MSH-7 of a reply: now, Beijing time with its zone.
  const d = new Date(Date.now() + 8 * 3_600_000).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}+0800`;
};

/** The positive acknowledgment (MSA|AA) of a message that is stored. */
export function ackOf(m: Hl7Message): Hl7Message {
  return m.buildAck({ ackCode: 'AA' });
}

/**
 * A negative acknowledgment: MSA-1 AR (refused: will not be accepted as sent) or AE (an error
 * here: send again later), MSA-3 the reason in English, ERR-3 the HL7 error code and ERR-8
 * the reason in both languages. `m` is absent when the frame could not be parsed at all.
 */
export function nakOf(m: Hl7Message | undefined, refusal: Hl7Refusal): Hl7Message {
  const base =
    m ??
    Hl7Message.parse(`MSH|^~\\&|CRDP|CRDP|||${stamp()}||ACK|${Date.now().toString(36).toUpperCase()}|P|2.5`);
  const nak = m
    ? base.buildAck({ ackCode: refusal.code })
    : Hl7Message.parse(`${base.getSegment('MSH')!.toString()}\rMSA|${refusal.code}|`);
  const controlId = m ? headerOf(m).controlId : '';
  nak.setSegment(
    'MSA',
    new Hl7Segment([
      'MSA',
      refusal.code,
      escapeText(controlId, 199),
      escapeText(refusal.reason['en-US'], 80),
    ]),
  );
  const text = `${refusal.reason['zh-CN']} / ${refusal.reason['en-US']}`;
  const names: Record<Hl7Refusal['errorCode'], string> = {
    '100': 'Segment sequence error',
    '101': 'Required field missing',
    '102': 'Data type error',
    '207': 'Application internal error',
  };
  nak.setSegment(
    2,
    new Hl7Segment([
      'ERR',
      '',
      '',
      `${refusal.errorCode}^${names[refusal.errorCode]}^HL70357`,
      'E',
      '',
      '',
      '',
      escapeText(text, 250),
    ]),
  );
  return nak;
}
