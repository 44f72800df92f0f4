import type {
  OmopImportReport,
  OmopMapping,
  OmopMappingBody,
  OmopMappingImportBody,
  OmopMappingPage,
  OmopMappingQuery,
  OmopRule,
  OmopRuleBody,
  OmopRuleList,
  OmopRulePatch,
  OmopTask,
  OmopTaskBody,
  OmopTaskPage,
  OmopTaskPatch,
  OmopTaskQuery,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the OMOP CDM pages (apps/server/src/omop/routes.ts); shapes from @crdp/core. */
export type {
  OmopBuiltinMapping as BuiltinMapping,
  OmopExportResult as ExportResult,
  OmopImportReport as ImportReport,
  OmopMapping as Mapping,
  OmopMappingBody as MappingInput,
  OmopMappingKind as MappingKind,
  OmopMappingPage as MappingPage,
  OmopRule as Rule,
  OmopRuleList as RuleList,
  OmopTask as Task,
  OmopUnmapped as Unmapped,
} from '@crdp/core';
export { OMOP_MAPPING_KINDS as MAPPING_KINDS } from '@crdp/core';

const P = 'omop';
export const omopApi = {
  mappings: (params: OmopMappingQuery) => rest<OmopMappingPage>({ url: `${P}/mappings`, params }),
  createMapping: (data: OmopMappingBody) => rest<OmopMapping>({ url: `${P}/mappings`, method: 'POST', data }),
  updateMapping: (id: number, data: OmopMappingBody) =>
    rest<OmopMapping>({ url: `${P}/mappings/${id}`, method: 'PUT', data }),
  removeMapping: (id: number) => rest<null>({ url: `${P}/mappings/${id}`, method: 'DELETE' }),
  importMappings: (data: OmopMappingImportBody) =>
    rest<OmopImportReport>({ url: `${P}/mappings/import`, method: 'POST', data }),
  exportUrl: () => `/api/v0.1/${P}/mappings/export`,

  rules: () => rest<OmopRuleList>({ url: `${P}/rules` }),
  writeDefaults: () => rest<OmopRuleList>({ url: `${P}/rules/defaults`, method: 'POST', data: {} }),
  createRule: (data: OmopRuleBody) => rest<OmopRule>({ url: `${P}/rules`, method: 'POST', data }),
  updateRule: (id: number, data: OmopRulePatch) =>
    rest<OmopRule>({ url: `${P}/rules/${id}`, method: 'PUT', data }),
  removeRule: (id: number) => rest<null>({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  switchRule: (id: number, on: boolean) =>
    rest<OmopRule>({ url: `${P}/rules/${id}/${on ? 'enable' : 'disable'}`, method: 'POST', data: {} }),

  tasks: (params: OmopTaskQuery) => rest<OmopTaskPage>({ url: `${P}/tasks`, params }),
  task: (id: number) => rest<OmopTask>({ url: `${P}/tasks/${id}` }),
  startTask: (data: OmopTaskBody) => rest<OmopTask>({ url: `${P}/tasks`, method: 'POST', data }),
  updateTask: (id: number, data: OmopTaskPatch) =>
    rest<OmopTask>({ url: `${P}/tasks/${id}`, method: 'PUT', data }),
  removeTask: (id: number) => rest<null>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  downloadUrl: (id: number) => `/api/v0.1/${P}/tasks/${id}/download`,
};
