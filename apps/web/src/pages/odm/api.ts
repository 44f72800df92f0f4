import type {
  ObservationDomain,
  OdmClinicalDataInput,
  OdmConceptList,
  OdmConcurrency,
  OdmConcurrencyInput,
  OdmElementChoices,
  OdmElementsInput,
  OdmGeneration,
  OdmGenerationList,
  OdmSubjectChoices,
  OdmTopic,
  OdmTopicList,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the ODM generation pages (apps/server/src/odm/routes.ts); shapes from @crdp/core. */
const P = 'odm';
export const odmApi = {
  topics: () => rest<OdmTopicList>({ url: `${P}/topics` }),
  subjects: () => rest<OdmSubjectChoices>({ url: `${P}/subjects` }),
  addTopic: (subjectId: number) =>
    rest<OdmTopic>({ url: `${P}/topics`, method: 'POST', data: { subjectId } }),
  removeTopic: (id: number) => rest<null>({ url: `${P}/topics/${id}`, method: 'DELETE' }),
  setClinicalData: (id: number, data: OdmClinicalDataInput) =>
    rest<OdmTopic>({ url: `${P}/topics/${id}/clinical-data`, method: 'PUT', data }),
  setElements: (id: number, data: OdmElementsInput) =>
    rest<OdmTopic>({ url: `${P}/topics/${id}/elements`, method: 'PUT', data }),
  elements: () => rest<OdmElementChoices>({ url: `${P}/elements` }),
  concepts: (id: number, domain: ObservationDomain) =>
    rest<OdmConceptList>({ url: `${P}/topics/${id}/concepts`, params: { domain } }),
  generate: (id: number) =>
    rest<OdmGeneration>({ url: `${P}/topics/${id}/generate`, method: 'POST', data: {} }),
  generations: (topicId?: number) =>
    rest<OdmGenerationList>({ url: `${P}/generations`, params: topicId ? { topicId } : {} }),
  downloadUrl: (id: number) => `/api/v0.1/${P}/generations/${id}/download`,
  concurrency: () => rest<OdmConcurrency>({ url: `${P}/concurrency` }),
  setConcurrency: (data: OdmConcurrencyInput) =>
    rest<OdmConcurrency>({ url: `${P}/concurrency`, method: 'PUT', data }),
};
