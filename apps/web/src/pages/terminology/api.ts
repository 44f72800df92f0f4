import type {
  ConceptDetailFull,
  ConceptHit,
  ConceptSummary,
  LocalCodeCreate,
  TerminologyDomain,
  TerminologySystem,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the terminology browser and the new-code screens (server: apps/server/src/terminology). */
export const terminologyApi = {
  systems: () => rest<TerminologySystem[]>({ url: 'terminology/systems' }),
  search: (q: string, system?: string, signal?: AbortSignal) =>
    rest<ConceptHit[]>({
      url: 'terminology/concepts',
      params: { q, limit: 50, ...(system ? { system } : {}) },
      ...(signal ? { signal } : {}),
    }),
  concept: (system: string, code: string) =>
    rest<ConceptDetailFull>({ url: 'terminology/concept', params: { system, code } }),
  addLocalCode: (domain: TerminologyDomain, body: LocalCodeCreate) =>
    rest<ConceptSummary>({
      url: `terminology/local-codes/${domain}`,
      method: 'POST',
      data: body,
      silent: true,
    }),
};
