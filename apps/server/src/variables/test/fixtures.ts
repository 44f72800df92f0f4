import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A variable of the demo app (for the authorization matrix). */
export async function makeVariableObjects(app: FastifyInstance, adminKey: string) {
  const r = await post(
    app,
    '/api/v0.1/variables',
    {
      code: 'matrix_age',
      labelZh: '矩阵年龄',
      type: 'number',
      unit: '岁',
      derivation: { kind: 'field', rule: 'value patient.age' },
    },
    adminKey,
  );
  if (r.status !== 200) throw new Error(`variable fixture: ${JSON.stringify(r.body)}`);
}
