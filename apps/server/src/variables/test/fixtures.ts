import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A variable and a variable group of the demo app (for the authorization matrix). */
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
  const g = await post(
    app,
    '/api/v0.1/variable-groups',
    { name: '矩阵变量组', variableIds: [r.body.data.id] },
    adminKey,
  );
  if (g.status !== 200) throw new Error(`variable group fixture: ${JSON.stringify(g.body)}`);
}
