import type {
  CodedModelVariableList,
  Codelist,
  CodingKind,
  ConceptHit,
  DataModel,
  DataModelCreate,
  DataModelKind,
  DataModelLinkList,
  DataModelList,
  DataModelPatch,
  DataModelStandard,
  DataModelStandardDetail,
  DataModelStandardList,
  DataModelTableCreate,
  DataModelVariableInput,
  GroupableIndicatorList,
  IndicatorGroup,
  IndicatorGroupCreate,
  IndicatorGroupList,
  IndicatorGroupPatch,
  ModelMappingPage,
  SdtmExportPreview,
  SdtmExportSubjectList,
} from '@crdp/core';
import { rest } from '../../api/client';
import { downloadWithSession } from '../crf/download';

const P = 'data-models';
const BASE: Record<DataModelKind, string> = { hospital: `${P}/hospital`, template: `${P}/templates` };

/** Data models (数据模型): CDISC models, the app's models and templates, export, mappings. */
export const dataModelsApi = {
  standards: () => rest<DataModelStandardList>({ url: `${P}/standards` }),
  standard: (key: DataModelStandard) =>
    rest<DataModelStandardDetail>({ url: `${P}/standard`, params: { key } }),
  codelist: (code: string) => rest<Codelist>({ url: `${P}/codelist`, params: { code } }),
  all: (q = '') => rest<DataModelList>({ url: P, params: { q } }),
  get: (id: number) => rest<DataModel>({ url: `${P}/${id}` }),
  removeAny: (id: number) => rest<true>({ url: `${P}/${id}`, method: 'DELETE' }),
  exportSubjects: () => rest<SdtmExportSubjectList>({ url: `${P}/sdtm-export/subjects` }),
  exportPreview: (subjectId: number, modelId?: number) =>
    rest<SdtmExportPreview>({ url: `${P}/sdtm-export/preview`, params: { subjectId, modelId } }),
  exportZip: (subjectId: number, modelId: number | undefined, fileName: string) =>
    downloadWithSession(
      `/api/v0.1/${P}/sdtm-export?subjectId=${subjectId}${modelId ? `&modelId=${modelId}` : ''}`,
      fileName,
    ),
};

/** The app's hospital models (模型维护) or templates (专病模型模板): the same calls under each screen's path. */
export const ownModelsApi = (kind: DataModelKind) => {
  const b = BASE[kind];
  return {
    list: () => rest<DataModelList>({ url: b }),
    links: () => rest<DataModelLinkList>({ url: `${b}/links` }),
    get: (id: number) => rest<DataModel>({ url: `${b}/${id}` }),
    add: (m: Omit<DataModelCreate, 'kind'>) =>
      rest<DataModel>({ url: b, method: 'POST', data: m, silent: true }),
    edit: (id: number, m: DataModelPatch) =>
      rest<DataModel>({ url: `${b}/${id}`, method: 'PATCH', data: m, silent: true }),
    remove: (id: number) => rest<true>({ url: `${b}/${id}`, method: 'DELETE' }),
    newVersion: (id: number) => rest<DataModel>({ url: `${b}/${id}/versions`, method: 'POST' }),
    addTable: (id: number, t: DataModelTableCreate) =>
      rest<DataModel>({ url: `${b}/${id}/tables`, method: 'POST', data: t, silent: true }),
    removeTable: (id: number, tableId: number) =>
      rest<DataModel>({ url: `${b}/${id}/tables/${tableId}`, method: 'DELETE' }),
    addVariable: (id: number, tableId: number, v: DataModelVariableInput) =>
      rest<DataModel>({
        url: `${b}/${id}/tables/${tableId}/variables`,
        method: 'POST',
        data: v,
        silent: true,
      }),
    editVariable: (id: number, variableId: number, v: Partial<DataModelVariableInput>) =>
      rest<DataModel>({ url: `${b}/${id}/variables/${variableId}`, method: 'PATCH', data: v, silent: true }),
    removeVariable: (id: number, variableId: number) =>
      rest<DataModel>({ url: `${b}/${id}/variables/${variableId}`, method: 'DELETE' }),
  };
};

export const indicatorGroupsApi = {
  list: () => rest<IndicatorGroupList>({ url: 'indicator-groups' }),
  indicators: () => rest<GroupableIndicatorList>({ url: 'indicator-groups/indicators' }),
  add: (g: IndicatorGroupCreate) =>
    rest<IndicatorGroup>({ url: 'indicator-groups', method: 'POST', data: g, silent: true }),
  edit: (id: number, g: IndicatorGroupPatch) =>
    rest<IndicatorGroup>({ url: `indicator-groups/${id}`, method: 'PATCH', data: g, silent: true }),
  remove: (id: number) => rest<true>({ url: `indicator-groups/${id}`, method: 'DELETE' }),
};

export const modelMappingsApi = {
  variables: (model?: string) =>
    rest<CodedModelVariableList>({ url: `${P}/coding/variables`, params: { model } }),
  mappings: (kind: CodingKind, q: { page: number; size: number; q?: string }) =>
    rest<ModelMappingPage>({ url: `${P}/coding/mappings`, params: { kind, ...q } }),
  codes: (kind: CodingKind, q: string) =>
    rest<ConceptHit[]>({ url: `${P}/coding/codes`, params: { kind, q } }),
  set: (kind: CodingKind, term: string, code: string | null) =>
    rest<true>({ url: `${P}/coding/mappings`, method: 'POST', data: { kind, term, code }, silent: true }),
  remove: (kind: CodingKind, term: string) =>
    rest<true>({ url: `${P}/coding/mappings/remove`, method: 'POST', data: { kind, term } }),
};
