import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { post } from '../../test/helper.js';

/**
 * One of each derived-data object in the caller's app, for the authorization matrix: a formula,
 * an indicator template holding it, the built-in Child-Pugh scale and one filling of it.
 */
export async function makeFormulaObjects(app: FastifyInstance, adminKey: string) {
  const ok = (r: { status: number; body: unknown }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as { data: { id: number } }).data.id;
  };
  const formula = ok(
    await post(
      app,
      '/api/v0.1/formulas',
      { name: '矩阵公式', expression: 'w * 2', variables: [{ name: 'w', source: 'exam', code: '体重' }] },
      adminKey,
    ),
  );
  ok(
    await post(
      app,
      '/api/v0.1/indicator-templates',
      { name: '矩阵指标模板', formulaIds: [formula] },
      adminKey,
    ),
  );
  const scale = ok(await post(app, '/api/v0.1/scales/builtins', { key: 'child-pugh' }, adminKey));
  const patient = ok(
    await post(app, '/api/v0.1/cdr/patients', { mrn: 'MX-F1', name: '矩阵量表病人', gender: 1 }, adminKey),
  );
  ok(
    await post(
      app,
      `/api/v0.1/scales/${scale}/assessments`,
      {
        patientId: patient,
        answers: { bilirubin: '1', albumin: '1', inr: '1', ascites: '1', encephalopathy: '1' },
      },
      adminKey,
    ),
  );
}

/** Body mass index from the physical exam's 体重 (kg) and 身高 (cm): a formula's body without its name. */
export const BMI_FORMULA = {
  unit: 'kg/m²',
  expression: '体重 / (身高 / 100) ^ 2',
  variables: [
    { name: '体重', source: 'exam', code: '体重' },
    { name: '身高', source: 'exam', code: '身高' },
  ],
};
