import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** The patient's sex as a category variable (1 男 Male, 2 女 Female): the body of its POST. */
export const SEX_VARIABLE = {
  code: 'sex',
  labelZh: '性别',
  labelEn: 'Sex',
  type: 'category',
  valueSet: [
    { code: '1', labelZh: '男', labelEn: 'Male' },
    { code: '2', labelZh: '女', labelEn: 'Female' },
  ],
  derivation: { kind: 'field', rule: 'value patient.gender' },
};

/**
 * Objects of the demo app for the authorization matrix: a variable, a group, a template, a group
 * template, a set, a transfer rule and a run of it, an external dataset (MIMIC 分析) and a
 * clinical document to annotate (标注管理).
 */
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
  const ok = (what: string, res: { status: number; body: { data: { id: number } } }) => {
    if (res.status !== 200) throw new Error(`${what} fixture: ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  };
  const template = ok(
    'variable template',
    await post(
      app,
      '/api/v0.1/variable-templates',
      { name: '矩阵模板', spec: { source: 'lab', codePrefix: 'mx', aggregates: ['max'] } },
      adminKey,
    ),
  );
  ok(
    'variable group template',
    await post(
      app,
      '/api/v0.1/variable-group-templates',
      { name: '矩阵组模板', templateIds: [template] },
      adminKey,
    ),
  );
  ok(
    'variable set',
    await post(
      app,
      '/api/v0.1/variable-sets',
      { name: '矩阵变量集', variableIds: [r.body.data.id] },
      adminKey,
    ),
  );
  const rule = ok(
    'transfer rule',
    await post(
      app,
      '/api/v0.1/variable-transfer-rules',
      {
        name: '矩阵转换',
        mappings: [{ sourceVariableId: r.body.data.id, targetCode: 'AGE', transform: 'copy' }],
      },
      adminKey,
    ),
  );
  ok('transfer run', await post(app, '/api/v0.1/variable-transfer-runs', { ruleId: rule }, adminKey));
  ok(
    'external dataset',
    await post(
      app,
      '/api/v0.1/external-datasets',
      { name: '矩阵数据集', csv: 'age,died\n60,1\n50,0' },
      adminKey,
    ),
  );
  const patient = ok(
    'patient',
    await post(app, '/api/v0.1/cdr/patients', { mrn: 'MXDOC', name: '矩阵文书', gender: 1 }, adminKey),
  );
  ok(
    'document',
    await post(
      app,
      `/api/v0.1/cdr/patients/${patient}/records`,
      {
        table: 'documents',
        row: {
          kind: 'progress',
          title: '矩阵病程',
          body: '血压120/80mmHg',
          writtenAt: '2024-01-01T08:00:00Z',
        },
      },
      adminKey,
    ),
  );
}
