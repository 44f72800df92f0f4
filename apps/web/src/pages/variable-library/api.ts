import type {
  BatchGroupBody,
  GroupTemplateApplyBody,
  StartedJob,
  TemplateApplied,
  TemplateApplyBody,
  Variable,
  VariableCreate,
  VariableDistribution,
  VariableGroup,
  VariableGroupCreate,
  VariableGroupList,
  VariableGroupPatch,
  VariableGroupTemplate,
  VariableGroupTemplateCreate,
  VariableGroupTemplateList,
  VariableGroupTemplatePatch,
  VariableList,
  VariablePatch,
  VariableQuery,
  VariableSet,
  VariableSetCreate,
  VariableSetList,
  VariableSetPatch,
  VariableTemplate,
  VariableTemplateCreate,
  VariableTemplateList,
  VariableTemplatePatch,
  VariableTransferRule,
  VariableTransferRuleCreate,
  VariableTransferRuleList,
  VariableTransferRulePatch,
  VariableTransferRunList,
} from '@crdp/core';
import { rest } from '../../api/client';

/** The variable library (科研变量库). */
export const variablesApi = {
  list: (q: VariableQuery) => rest<VariableList>({ url: 'variables', params: q }),
  add: (v: VariableCreate) => rest<Variable>({ url: 'variables', method: 'POST', data: v, silent: true }),
  edit: (id: number, v: VariablePatch) =>
    rest<Variable>({ url: `variables/${id}`, method: 'PATCH', data: v, silent: true }),
  remove: (id: number) => rest<true>({ url: `variables/${id}`, method: 'DELETE' }),
  distribution: (id: number) => rest<VariableDistribution>({ url: `variables/${id}/distribution` }),
};

/** Variable groups (变量组). */
export const variableGroupsApi = {
  list: () => rest<VariableGroupList>({ url: 'variable-groups' }),
  add: (g: VariableGroupCreate) =>
    rest<VariableGroup>({ url: 'variable-groups', method: 'POST', data: g, silent: true }),
  edit: (id: number, g: VariableGroupPatch) =>
    rest<VariableGroup>({ url: `variable-groups/${id}`, method: 'PATCH', data: g, silent: true }),
  remove: (id: number) => rest<true>({ url: `variable-groups/${id}`, method: 'DELETE' }),
};

/** Variable templates (变量模板), group templates (变量组模板) and batch groups (批量变量组). */
export const variableTemplatesApi = {
  list: () => rest<VariableTemplateList>({ url: 'variable-templates' }),
  add: (b: VariableTemplateCreate) =>
    rest<VariableTemplate>({ url: 'variable-templates', method: 'POST', data: b, silent: true }),
  edit: (id: number, b: VariableTemplatePatch) =>
    rest<VariableTemplate>({ url: `variable-templates/${id}`, method: 'PATCH', data: b, silent: true }),
  remove: (id: number) => rest<true>({ url: `variable-templates/${id}`, method: 'DELETE' }),
  apply: (id: number, b: TemplateApplyBody) =>
    rest<TemplateApplied>({ url: `variable-templates/${id}/apply`, method: 'POST', data: b, silent: true }),
};

export const groupTemplatesApi = {
  list: () => rest<VariableGroupTemplateList>({ url: 'variable-group-templates' }),
  add: (b: VariableGroupTemplateCreate) =>
    rest<VariableGroupTemplate>({ url: 'variable-group-templates', method: 'POST', data: b, silent: true }),
  edit: (id: number, b: VariableGroupTemplatePatch) =>
    rest<VariableGroupTemplate>({
      url: `variable-group-templates/${id}`,
      method: 'PATCH',
      data: b,
      silent: true,
    }),
  remove: (id: number) => rest<true>({ url: `variable-group-templates/${id}`, method: 'DELETE' }),
  apply: (id: number, b: GroupTemplateApplyBody) =>
    rest<TemplateApplied>({
      url: `variable-group-templates/${id}/apply`,
      method: 'POST',
      data: b,
      silent: true,
    }),
  batchTemplates: () => rest<VariableGroupTemplateList>({ url: 'variable-batch-groups/templates' }),
  batch: (b: BatchGroupBody) =>
    rest<TemplateApplied>({ url: 'variable-batch-groups', method: 'POST', data: b, silent: true }),
};

/** Variable sets (变量集). */
export const variableSetsApi = {
  list: () => rest<VariableSetList>({ url: 'variable-sets' }),
  add: (b: VariableSetCreate) =>
    rest<VariableSet>({ url: 'variable-sets', method: 'POST', data: b, silent: true }),
  edit: (id: number, b: VariableSetPatch) =>
    rest<VariableSet>({ url: `variable-sets/${id}`, method: 'PATCH', data: b, silent: true }),
  remove: (id: number) => rest<true>({ url: `variable-sets/${id}`, method: 'DELETE' }),
};

/** Transfer rules (转换规则) and their runs (转换列表). */
export const transfersApi = {
  rules: () => rest<VariableTransferRuleList>({ url: 'variable-transfer-rules' }),
  addRule: (b: VariableTransferRuleCreate) =>
    rest<VariableTransferRule>({ url: 'variable-transfer-rules', method: 'POST', data: b, silent: true }),
  editRule: (id: number, b: VariableTransferRulePatch) =>
    rest<VariableTransferRule>({
      url: `variable-transfer-rules/${id}`,
      method: 'PATCH',
      data: b,
      silent: true,
    }),
  setEnabled: (id: number, enabled: boolean) =>
    rest<VariableTransferRule>({
      url: `variable-transfer-rules/${id}/${enabled ? 'enable' : 'disable'}`,
      method: 'POST',
      data: {},
    }),
  removeRule: (id: number) => rest<true>({ url: `variable-transfer-rules/${id}`, method: 'DELETE' }),
  runs: () => rest<VariableTransferRunList>({ url: 'variable-transfer-runs' }),
  run: (ruleId: number) =>
    rest<StartedJob>({ url: 'variable-transfer-runs', method: 'POST', data: { ruleId } }),
  removeRun: (id: number) => rest<true>({ url: `variable-transfer-runs/${id}`, method: 'DELETE' }),
  csvUrl: (id: number) => `/api/v0.1/variable-transfer-runs/${id}/values.csv`,
};
