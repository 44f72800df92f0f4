import {
  variable,
  variableCreate,
  variableDistribution,
  variableGroup,
  variableGroupCreate,
  variableGroupList,
  variableGroupParams,
  variableGroupPatch,
  variableList,
  variableParams,
  variablePatch,
  variableQuery,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addVariableGroup,
  deleteVariableGroup,
  editVariableGroup,
  listVariableGroups,
  ownedVariableGroupIds,
  variableGroupRow,
} from './groups.js';
import {
  addVariable,
  deleteVariable,
  variableDistribution as distributionOf,
  editVariable,
  listVariables,
  ownedVariableIds,
  variableRow,
} from './variables.js';

const P = '/api/v0.1/variables';

/**
 * The variable library (科研变量库): variables with their derivation from the clinical data and
 * their distribution on the current data. The list screen reads (VariableList), the management
 * screen writes (VariableManagement).
 */
export async function variableRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['variables'] });
  const L = (action: string) => ({ apiId: `VariableList.${action}` });
  const M = (action: string) => ({ apiId: `VariableManagement.${action}` });
  const own = ownedPath(variableParams, ownedVariableIds, (appId, p) => variableRow(db, appId, p.id));

  api.get(
    P,
    {
      access: L('query'),
      summary: 'The app’s variables, by code, label or type',
      query: variableQuery,
      answer: variableList,
    },
    (req) => listVariables(db, signedIn(req.ctx).appId, req.query),
  );
  api.post(
    P,
    { access: M('add'), summary: 'Add a variable', body: variableCreate, answer: variable },
    (req) => addVariable(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/:id`,
    { access: M('edit'), ...own, summary: 'Change a variable', body: variablePatch, answer: variable },
    (req) => editVariable(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/:id`,
    { access: M('delete'), ...own, summary: 'Delete a variable', answer: z.literal(true) },
    (req) => deleteVariable(signedIn(req.ctx), req.params.id),
  );
  api.get(
    `${P}/:id/distribution`,
    {
      access: L('get'),
      ...own,
      summary:
        'A variable’s values over the app’s current patients (count, missing, min/median/max or categories)',
      answer: variableDistribution,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return distributionOf(db, ctx.appId, req.params.id, ctx.locale);
    },
  );

  // Variable groups (变量组列表).
  const G = '/api/v0.1/variable-groups';
  const VG = (action: string) => ({ apiId: `VariableGroupList.${action}` });
  const ownGroup = ownedPath(variableGroupParams, ownedVariableGroupIds, (appId, p) =>
    variableGroupRow(db, appId, p.id),
  );
  api.get(
    G,
    {
      access: VG('query'),
      summary: 'The app’s variable groups with their variables',
      answer: variableGroupList,
    },
    (req) => listVariableGroups(db, signedIn(req.ctx).appId),
  );
  api.post(
    G,
    { access: VG('add'), summary: 'Add a variable group', body: variableGroupCreate, answer: variableGroup },
    (req) => addVariableGroup(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${G}/:id`,
    {
      access: VG('edit'),
      ...ownGroup,
      summary: 'Change a variable group (its variables in order)',
      body: variableGroupPatch,
      answer: variableGroup,
    },
    (req) => editVariableGroup(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${G}/:id`,
    {
      access: VG('delete'),
      ...ownGroup,
      summary: 'Delete a variable group (its variables stay)',
      answer: z.literal(true),
    },
    (req) => deleteVariableGroup(signedIn(req.ctx), req.params.id),
  );
}
