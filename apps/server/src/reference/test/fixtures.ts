import type { FastifyInstance } from 'fastify';
import { get, post } from '../../test/helper.js';

/**
 * One of each reference object in the caller's app, for the authorization matrix: a campus with
 * a department, the basic dictionaries, an own dictionary with an entry, and a T0 event.
 */
export async function makeReferenceObjects(app: FastifyInstance, adminKey: string) {
  const campus = await post(
    app,
    '/api/v0.1/hospital-units',
    { kind: 'campus', code: 'MC1', name: '矩阵院区' },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/hospital-units',
    { kind: 'department', code: 'MD1', name: '矩阵科室', parentId: campus.body.data.id },
    adminKey,
  );
  await get(app, '/api/v0.1/basic-dictionaries', adminKey);
  const own = await post(app, '/api/v0.1/dictionaries', { code: 'matrix_codes', name: '矩阵字典' }, adminKey);
  await post(
    app,
    `/api/v0.1/dictionaries/${own.body.data.id}/entries`,
    { code: 'M1', name: '矩阵项' },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/t0-events',
    { name: '矩阵 T0', rule: { kind: 'firstDiagnosis', icd10Prefix: 'I10' } },
    adminKey,
  );
}
