import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/**
 * A saved report with a parameter, run once, and a data-factory entry over it, in the demo app:
 * the security harness asks for their ids from another app and fuzzes their routes.
 */
export async function makeReportObjects(app: FastifyInstance, adminKey: string) {
  const made = await post(
    app,
    '/api/v0.1/reports',
    {
      name: '矩阵报表',
      definition: {
        source: 'diagnoses',
        columns: ['patients.mrn', 'diagnoses.icd10'],
        filters: [{ field: 'diagnoses.icd10', op: 'prefix', param: 'icd' }],
        params: [{ key: 'icd', label: '编码前缀', type: 'text' }],
      },
    },
    adminKey,
  );
  if (made.status !== 200) throw new Error(`report fixture: ${JSON.stringify(made.body)}`);
  const id = made.body.data.id as number;
  await post(app, `/api/v0.1/reports/${id}/run`, { params: { icd: 'I' } }, adminKey);
  await post(
    app,
    '/api/v0.1/data-factory/entries',
    { kind: 'report', sourceId: id, tags: ['矩阵'] },
    adminKey,
  );
}
