import { RESEARCH_LABEL_MAX, type ResearchCatalogueItem, type ResearchVariableBody } from '@crdp/core';

/** The variables every patient has, computed from the record itself. */
export const COMPUTED = ['age', 'gender', 'visitCount'] as const;
export type Computed = (typeof COMPUTED)[number];

/** How a diagnosis category becomes a column: has it (0/1), or time to it (days and event). */
export type DiagnosisUse = 'diagnosis' | 'survival';
export type LabAggregate = 'first' | 'last' | 'min' | 'max' | 'mean';

/** A variable picked from the catalogue, before it gets its key and label. */
export type Picked =
  | { source: 'lab'; item: ResearchCatalogueItem; aggregate: LabAggregate; window?: LabWindow }
  | { source: DiagnosisUse; item: ResearchCatalogueItem };

/** Which lab results count when a T0 event is the zero point: all, those up to T0 (baseline), those after. */
export type LabWindow = 'all' | 'beforeT0' | 'afterT0';
export const LAB_WINDOWS: LabWindow[] = ['all', 'beforeT0', 'afterT0'];

/** The zero point of the subject's times: the first visit (null) or a T0 event. */
export interface ZeroPoint {
  eventId: number;
  name: string;
  /** Add "days since T0" as a variable. */
  followUp: boolean;
}

/**
 * A dataset column name from a code: lower case, letters, digits and `_`, starting with a letter
 * (`GLU` → `glu`, `E11` with prefix `dx` → `dx_e11`), made unique against the names taken.
 */
export function variableKey(code: string, prefix: string, taken: ReadonlySet<string>): string {
  const body = code
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  let key = prefix ? `${prefix}_${body}` : body;
  if (!/^[a-z]/.test(key)) key = `v_${key}`;
  key = key.slice(0, 36).replace(/_+$/, '') || 'v';
  let unique = key;
  for (let n = 2; taken.has(unique); n++) unique = `${key}_${n}`;
  return unique;
}

const cut = (s: string) => (s.length > RESEARCH_LABEL_MAX ? `${s.slice(0, RESEARCH_LABEL_MAX - 1)}…` : s);

/**
 * The variables sent to the server: the computed ones (labelled in the creator's language) and
 * the picked ones, keyed from their codes and labelled by their names (a lab item by its name; a
 * diagnosis as "name（code）"; a survival outcome as "name生存（code）").
 */
export function variablesOf(
  computed: readonly Computed[],
  picked: readonly Picked[],
  words: {
    computed: (c: Computed) => string;
    survival: (name: string, code: string) => string;
    diagnosis: (name: string, code: string) => string;
    followUp?: (event: string) => string;
  },
  zero: ZeroPoint | null = null,
): ResearchVariableBody[] {
  const taken = new Set<string>();
  const out: ResearchVariableBody[] = [];
  const add = (v: ResearchVariableBody) => {
    taken.add(v.key);
    out.push(v);
  };
  for (const c of COMPUTED) {
    if (!computed.includes(c)) continue;
    const key = c === 'gender' ? 'sex' : c === 'visitCount' ? 'visits' : 'age';
    add({ key, label: words.computed(c), source: c });
  }
  for (const p of picked) {
    const name = p.item.name || p.item.code;
    if (p.source === 'lab')
      add({
        key: variableKey(p.item.code, '', taken),
        label: cut(name),
        source: 'lab',
        itemCode: p.item.code,
        aggregate: p.aggregate,
        ...(zero && p.window && p.window !== 'all' ? { t0EventId: zero.eventId, t0Window: p.window } : {}),
      });
    else
      add({
        key: variableKey(p.item.code, p.source === 'survival' ? 'surv' : 'dx', taken),
        label: cut((p.source === 'survival' ? words.survival : words.diagnosis)(name, p.item.code)),
        source: p.source,
        codes: [p.item.code],
        ...(zero && p.source === 'survival' ? { t0EventId: zero.eventId } : {}),
      });
  }
  if (zero?.followUp)
    add({
      key: variableKey('t0_days', '', taken),
      label: cut(words.followUp ? words.followUp(zero.name) : zero.name),
      source: 't0Days',
      t0EventId: zero.eventId,
    });
  return out;
}
