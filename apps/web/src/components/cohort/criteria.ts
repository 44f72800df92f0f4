import {
  type CohortCondition,
  type CohortConditionKind,
  type CohortCriteria,
  cohortConditionSchema,
} from '@crdp/core';

/**
 * A condition while it is being written: the kind is chosen, the fields may still be empty.
 * Only the conditions that the shared schema accepts leave the builder (`completeCriteria`).
 */
export type DraftCondition = { kind: CohortConditionKind } & Record<string, unknown>;
export interface DraftCriteria {
  match: 'all' | 'any';
  inclusion: DraftCondition[];
  exclusion: DraftCondition[];
}

export const emptyDraft = (): DraftCriteria => ({ match: 'all', inclusion: [], exclusion: [] });

/** A fresh condition of a kind, with the defaults a person most often wants. */
export function newCondition(kind: CohortConditionKind): DraftCondition {
  switch (kind) {
    case 'diagnosis':
      return { kind, codes: [] };
    case 'gender':
      return { kind, codes: [] };
    case 'visit':
      return { kind, visitKinds: ['inpatient'] };
    default:
      return { kind };
  }
}

const clean = (c: DraftCondition) =>
  Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/** The conditions the server will accept, in their order; a half-written one is left out. */
export function completeConditions(list: readonly DraftCondition[]): CohortCondition[] {
  const out: CohortCondition[] = [];
  for (const c of list) {
    const r = cohortConditionSchema.safeParse(clean(c));
    if (r.success) out.push(r.data);
  }
  return out;
}

export function completeCriteria(d: DraftCriteria): CohortCriteria {
  return {
    match: d.match,
    inclusion: completeConditions(d.inclusion),
    exclusion: completeConditions(d.exclusion),
  };
}

/** How many written conditions are not complete yet (shown so nothing is dropped silently). */
export const incompleteCount = (d: DraftCriteria) =>
  d.inclusion.length +
  d.exclusion.length -
  completeConditions(d.inclusion).length -
  completeConditions(d.exclusion).length;
