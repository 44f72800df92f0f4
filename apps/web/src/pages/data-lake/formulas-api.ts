import type {
  AssessmentScale,
  AssessmentScaleList,
  Formula,
  FormulaBuiltinList,
  FormulaCreate,
  FormulaList,
  FormulaPatch,
  FormulaTestBody,
  FormulaTestResult,
  IndicatorTemplate,
  IndicatorTemplateCreate,
  IndicatorTemplateList,
  IndicatorTemplatePatch,
  ScaleAssessment,
  ScaleAssessmentCreate,
  ScaleAssessmentList,
  ScaleAssessmentQuery,
  ScaleBuiltinList,
  ScaleCreate,
  ScalePatch,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the formula editor (公式编辑器). */
export const formulaApi = {
  list: () => rest<FormulaList>({ url: 'formulas' }),
  add: (f: FormulaCreate) => rest<Formula>({ url: 'formulas', method: 'POST', data: f, silent: true }),
  edit: (id: number, f: FormulaPatch) =>
    rest<Formula>({ url: `formulas/${id}`, method: 'PATCH', data: f, silent: true }),
  remove: (id: number) => rest<true>({ url: `formulas/${id}`, method: 'DELETE', silent: true }),
  builtins: () => rest<FormulaBuiltinList>({ url: 'formulas/builtins' }),
  addBuiltin: (key: string) =>
    rest<Formula>({ url: 'formulas/builtins', method: 'POST', data: { key }, silent: true }),
  test: (body: FormulaTestBody) =>
    rest<FormulaTestResult>({ url: 'formulas/test', method: 'POST', data: body, silent: true }),
};

/** Calls of the indicator templates (指标模板). */
export const indicatorTemplateApi = {
  list: () => rest<IndicatorTemplateList>({ url: 'indicator-templates' }),
  add: (t: IndicatorTemplateCreate) =>
    rest<IndicatorTemplate>({ url: 'indicator-templates', method: 'POST', data: t, silent: true }),
  edit: (id: number, t: IndicatorTemplatePatch) =>
    rest<IndicatorTemplate>({ url: `indicator-templates/${id}`, method: 'PATCH', data: t, silent: true }),
  remove: (id: number) => rest<true>({ url: `indicator-templates/${id}`, method: 'DELETE', silent: true }),
};

/** Calls of the assessment scales (评估量表) and their fillings. */
export const scaleApi = {
  list: () => rest<AssessmentScaleList>({ url: 'scales' }),
  add: (s: ScaleCreate) => rest<AssessmentScale>({ url: 'scales', method: 'POST', data: s, silent: true }),
  edit: (id: number, s: ScalePatch) =>
    rest<AssessmentScale>({ url: `scales/${id}`, method: 'PATCH', data: s, silent: true }),
  remove: (id: number) => rest<true>({ url: `scales/${id}`, method: 'DELETE', silent: true }),
  builtins: () => rest<ScaleBuiltinList>({ url: 'scales/builtins' }),
  addBuiltin: (key: string) =>
    rest<AssessmentScale>({ url: 'scales/builtins', method: 'POST', data: { key }, silent: true }),
  fill: (id: number, a: ScaleAssessmentCreate) =>
    rest<ScaleAssessment>({ url: `scales/${id}/assessments`, method: 'POST', data: a, silent: true }),
  assessments: (q: ScaleAssessmentQuery) =>
    rest<ScaleAssessmentList>({ url: 'scale-assessments', params: q }),
  removeAssessment: (id: number) =>
    rest<true>({ url: `scale-assessments/${id}`, method: 'DELETE', silent: true }),
};
