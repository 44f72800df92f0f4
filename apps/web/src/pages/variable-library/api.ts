import type {
  Variable,
  VariableCreate,
  VariableDistribution,
  VariableGroup,
  VariableGroupCreate,
  VariableGroupList,
  VariableGroupPatch,
  VariableList,
  VariablePatch,
  VariableQuery,
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
