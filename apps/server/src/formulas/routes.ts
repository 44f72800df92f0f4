import {
  assessmentScale,
  assessmentScaleList,
  builtinAdd,
  formula,
  formulaBuiltinList,
  formulaCreate,
  formulaList,
  formulaParams,
  formulaPatch,
  formulaTemplateCall,
  formulaTest,
  formulaTestResult,
  formulaValue,
  indicatorTemplate,
  indicatorTemplateCreate,
  indicatorTemplateList,
  indicatorTemplatePatch,
  scaleAssessment,
  scaleAssessmentCreate,
  scaleAssessmentList,
  scaleAssessmentParams,
  scaleAssessmentQuery,
  scaleBuiltinList,
  scaleCreate,
  scaleParams,
  scalePatch,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditRead } from '../audit/audit.js';
import { appActor, signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addBuiltinFormula,
  addFormula,
  callTemplate,
  deleteFormula,
  editFormula,
  formulaOf,
  formulasOf,
  listBuiltinFormulas,
  listFormulas,
  testFormula,
} from './formulas.js';
import {
  addBuiltinScale,
  addScale,
  assessmentOf,
  assessmentsOf,
  deleteAssessment,
  deleteScale,
  editScale,
  fillScale,
  listAssessments,
  listBuiltinScales,
  listScales,
  scaleOf,
  scalesOf,
} from './scales.js';
import {
  addTemplate,
  deleteTemplate,
  editTemplate,
  listTemplates,
  templateOf,
  templatesOf,
} from './templates.js';

const F = '/api/v0.1/formulas';
const T = '/api/v0.1/indicator-templates';
const S = '/api/v0.1/scales';
const SA = '/api/v0.1/scale-assessments';

/**
 * Derived data: formulas (DataLakeFormulaEditor) with their test on a patient and the spec's
 * template call, indicator templates (DataLakeIndicatrixTemplate) and assessment scales
 * (DataLakeEvaluationScale) with their fillings.
 */
export async function formulaRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['formulas'] });
  const FE = (action: string) => ({ apiId: `DataLakeFormulaEditor.${action}` });
  const IT = (action: string) => ({ apiId: `DataLakeIndicatrixTemplate.${action}` });
  const ES = (action: string) => ({ apiId: `DataLakeEvaluationScale.${action}` });
  const ownFormula = ownedPath(formulaParams, formulasOf, (appId, p) => formulaOf(db, appId, p.id));
  const ownTemplate = ownedPath(formulaParams, templatesOf, (appId, p) => templateOf(db, appId, p.id));
  const ownScale = ownedPath(scaleParams, scalesOf, (appId, p) => scaleOf(db, appId, p.id));
  const ownAssessment = ownedPath(scaleAssessmentParams, assessmentsOf, (appId, p) =>
    assessmentOf(db, appId, p.id),
  );

  // Formulas.
  api.get(F, { access: FE('query'), summary: 'The app’s formulas', answer: formulaList }, (req) =>
    listFormulas(db, signedIn(req.ctx).appId),
  );
  api.post(F, { access: FE('add'), summary: 'Add a formula', body: formulaCreate, answer: formula }, (req) =>
    addFormula(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${F}/:id`,
    { access: FE('edit'), ...ownFormula, summary: 'Change a formula', body: formulaPatch, answer: formula },
    (req) => editFormula(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${F}/:id`,
    {
      access: FE('delete'),
      ...ownFormula,
      summary: 'Delete a formula no indicator template uses',
      answer: z.literal(true),
    },
    (req) => deleteFormula(signedIn(req.ctx), req.params.id),
  );
  api.get(
    `${F}/builtins`,
    {
      access: FE('query'),
      summary: 'Built-in formulas (BMI, eGFR CKD-EPI 2021, MELD …) and whether the app has added each',
      answer: formulaBuiltinList,
    },
    (req) => listBuiltinFormulas(db, signedIn(req.ctx)),
  );
  api.post(
    `${F}/builtins`,
    {
      access: FE('add'),
      summary: 'Add a built-in formula to the app',
      body: builtinAdd,
      answer: formula,
    },
    (req) => addBuiltinFormula(signedIn(req.ctx), req.body.key),
  );
  api.post(
    `${F}/test`,
    {
      access: FE('get'),
      summary: 'Work a formula out on one patient, with the inputs it used',
      body: formulaTest,
      answer: formulaTestResult,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      const result = await testFormula(db, ctx, req.body);
      // The test read the patient's clinical data: ids and names of the inputs, never values.
      await auditRead(req.ctx, {
        entity: 'patient',
        entityId: req.body.patientId,
        detail: { formulaTest: req.body.variables.map((v) => `${v.source}:${v.code}`) },
      });
      return result;
    },
  );
  api.post(
    `${F}/evaluate-template`,
    {
      access: FE('get'),
      summary: 'The computed-indicator template call: template_str worked out with template_params',
      body: formulaTemplateCall,
      answer: formulaValue,
    },
    (req) => {
      appActor(req.ctx);
      return callTemplate(req.body);
    },
  );

  // Indicator templates.
  api.get(
    T,
    { access: IT('query'), summary: 'The app’s indicator templates', answer: indicatorTemplateList },
    (req) => listTemplates(db, signedIn(req.ctx).appId),
  );
  api.post(
    T,
    {
      access: IT('add'),
      summary: 'Add an indicator template',
      body: indicatorTemplateCreate,
      answer: indicatorTemplate,
    },
    (req) => addTemplate(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${T}/:id`,
    {
      access: IT('edit'),
      ...ownTemplate,
      summary: 'Change an indicator template (its formulas in order)',
      body: indicatorTemplatePatch,
      answer: indicatorTemplate,
    },
    (req) => editTemplate(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${T}/:id`,
    {
      access: IT('delete'),
      ...ownTemplate,
      summary: 'Delete an indicator template',
      answer: z.literal(true),
    },
    (req) => deleteTemplate(signedIn(req.ctx), req.params.id),
  );

  // Assessment scales.
  api.get(
    S,
    { access: ES('query'), summary: 'The app’s assessment scales', answer: assessmentScaleList },
    (req) => listScales(db, signedIn(req.ctx).appId),
  );
  api.post(
    S,
    { access: ES('add'), summary: 'Add a scale', body: scaleCreate, answer: assessmentScale },
    (req) => addScale(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${S}/:id`,
    { access: ES('edit'), ...ownScale, summary: 'Change a scale', body: scalePatch, answer: assessmentScale },
    (req) => editScale(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${S}/:id`,
    {
      access: ES('delete'),
      ...ownScale,
      summary: 'Delete a scale nobody has filled',
      answer: z.literal(true),
    },
    (req) => deleteScale(signedIn(req.ctx), req.params.id),
  );
  api.get(
    `${S}/builtins`,
    {
      access: ES('query'),
      summary: 'Built-in scales (Child-Pugh, GCS, NRS-2002) and whether the app has added each',
      answer: scaleBuiltinList,
    },
    (req) => listBuiltinScales(db, signedIn(req.ctx)),
  );
  api.post(
    `${S}/builtins`,
    {
      access: ES('add'),
      summary: 'Add a built-in scale to the app',
      body: builtinAdd,
      answer: assessmentScale,
    },
    (req) => addBuiltinScale(signedIn(req.ctx), req.body.key),
  );
  api.post(
    `${S}/:id/assessments`,
    {
      access: ES('add'),
      ...ownScale,
      summary: 'Fill a scale for a patient (and a visit): answers, total and band stored',
      body: scaleAssessmentCreate,
      answer: scaleAssessment,
    },
    (req) => fillScale(signedIn(req.ctx), req.params.id, req.body),
  );
  api.get(
    SA,
    {
      access: ES('get'),
      summary: 'Filled scales, newest first, of a patient and/or a scale',
      query: scaleAssessmentQuery,
      answer: scaleAssessmentList,
    },
    async (req) => {
      const list = await listAssessments(db, signedIn(req.ctx).appId, req.query);
      await auditRead(req.ctx, {
        entity: 'scale_assessment',
        detail: {
          patientId: req.query.patientId ?? null,
          scaleId: req.query.scaleId ?? null,
          count: list.items.length,
        },
      });
      return list;
    },
  );
  api.delete(
    `${SA}/:id`,
    { access: ES('delete'), ...ownAssessment, summary: 'Delete a filled scale', answer: z.literal(true) },
    (req) => deleteAssessment(signedIn(req.ctx), req.params.id),
  );
}
