/**
 * Units of cleaned values: the spellings clinical text uses and how each converts to the unit a
 * rule stores. A conversion is keyed by the target unit, because one spelling converts
 * differently by target (IU/L is U/L for an enzyme but a thousandth of IU/mL for a viral load).
 */

/** A raw unit as compared: NFKC (full-width letters, ℃ to °C, superscripts), no spaces, lower case, µ/μ as u. */
export function unitKey(raw: string): string {
  return raw.normalize('NFKC').replace(/\s+/g, '').replace(/[µμ]/g, 'u').replace(/／/g, '/').toLowerCase();
}

type Convert = (v: number) => number;
const times =
  (f: number): Convert =>
  (v) =>
    v * f;

/** Target unit -> raw unit key -> conversion to the target. */
const CONVERSIONS: Record<string, Record<string, Convert>> = {
  mmHg: { mmhg: times(1), 毫米汞柱: times(1), kpa: times(7.500_62) },
  'IU/mL': {
    'iu/ml': times(1),
    '国际单位/ml': times(1),
    '国际单位/毫升': times(1),
    'iu/l': times(0.001),
  },
  'U/L': { 'u/l': times(1), 'iu/l': times(1), '单位/升': times(1) },
  '℃': { '°c': times(1), c: times(1), 度: times(1), '°f': (v) => ((v - 32) * 5) / 9 },
  '次/分': {
    '次/分': times(1),
    '次/分钟': times(1),
    '次/min': times(1),
    bpm: times(1),
    '/min': times(1),
    次: times(1),
  },
  kg: { kg: times(1), 公斤: times(1), 千克: times(1), g: times(0.001), 斤: times(0.5) },
  cm: { cm: times(1), 厘米: times(1), mm: times(0.1), 毫米: times(0.1), m: times(100) },
  'μmol/L': { 'umol/l': times(1), 'mmol/l': times(1000) },
  'mmol/L': { 'mmol/l': times(1), 'umol/l': times(0.001) },
  'g/L': { 'g/l': times(1), 'g/dl': times(10), 'mg/ml': times(1) },
  '%': { '%': times(1) },
};

/** Every raw spelling the tables know, longest first: the unit words a syntactic rule reads after a value. */
export const KNOWN_UNIT_SPELLINGS: readonly string[] = [
  'mmHg',
  'mmhg',
  'MMHG',
  '毫米汞柱',
  'kPa',
  'KPa',
  'kpa',
  'IU/mL',
  'IU/ml',
  'iu/ml',
  'IU/L',
  'iu/l',
  'U/L',
  'u/l',
  'copies/mL',
  'copies/ml',
  '拷贝/ml',
  '国际单位/毫升',
  '国际单位/ml',
  '单位/升',
  '℃',
  '°C',
  '°c',
  '°F',
  '度',
  '次/分钟',
  '次/分',
  '次/min',
  'bpm',
  '/min',
  '次',
  'kg',
  'Kg',
  'KG',
  '公斤',
  '千克',
  '斤',
  'cm',
  '厘米',
  'mm',
  '毫米',
  'μmol/L',
  'µmol/L',
  'umol/L',
  'mmol/L',
  'g/L',
  'g/dL',
  'mg/mL',
  '%',
].sort((a, b) => b.length - a.length);

export interface UnitConversion {
  ok: boolean;
  value: number;
  /** The unit stored: the target when converted, else the raw spelling. */
  unit: string;
}

/**
 * Converts a value read in `raw` to `target`. An empty raw unit takes the target (the rule's
 * unit is implied); an empty target keeps the raw unit as it is. `ok` is false when the raw unit
 * is not one the target knows (the value is kept with its raw unit and becomes a QC fault).
 */
export function convertUnit(value: number, raw: string, target: string): UnitConversion {
  if (!target) return { ok: true, value, unit: raw };
  if (!raw) return { ok: true, value, unit: target };
  const key = unitKey(raw);
  if (key === unitKey(target)) return { ok: true, value, unit: target };
  const f = CONVERSIONS[target]?.[key];
  if (!f) return { ok: false, value, unit: raw };
  // Ten significant digits: 1.2 × 10^5 is 120000, not 119999.99999999999.
  return { ok: true, value: Number(f(value).toPrecision(10)), unit: target };
}

/** Whether the tables know a target unit (a rule's unit outside them converts only identical spellings). */
export const isKnownTargetUnit = (unit: string) => unit in CONVERSIONS;
