import type { FastifyInstance } from 'fastify';
import { get, post } from '../../test/helper.js';

/**
 * Data-model objects for the authorization matrix: a hospital model copied from SDTMIG (its tables
 * and variables addressed by path), a disease template with a table and variable of its own, and
 * an indicator group over one of the app's formulas.
 */
export async function makeDataModelObjects(app: FastifyInstance, adminKey: string) {
  const ok = (r: { status: number; body: unknown }) => {
    if (r.status !== 200) throw new Error(`data-model fixture: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as { data: { id: number; tableList: Array<{ id: number }> } };
  };
  ok(
    await post(
      app,
      '/api/v0.1/data-models/hospital',
      { code: 'MATRIX_SDTM', name: '矩阵模型', from: { type: 'standard', key: 'sdtmig', tables: ['DM'] } },
      adminKey,
    ),
  );
  const tpl = ok(
    await post(app, '/api/v0.1/data-models/templates', { code: 'MATRIX_TPL', name: '矩阵模板' }, adminKey),
  );
  const withTable = ok(
    await post(
      app,
      `/api/v0.1/data-models/templates/${tpl.data.id}/tables`,
      { name: 'XM', label: 'Matrix' },
      adminKey,
    ),
  );
  ok(
    await post(
      app,
      `/api/v0.1/data-models/templates/${tpl.data.id}/tables/${withTable.data.tableList[0]!.id}/variables`,
      { name: 'XMVAL', label: 'Matrix value', type: 'Num' },
      adminKey,
    ),
  );
  const formulas = (await get(app, '/api/v0.1/indicator-groups/indicators', adminKey)).body.data
    .items as Array<{
    id: number;
  }>;
  ok(
    await post(
      app,
      '/api/v0.1/indicator-groups',
      { name: '矩阵指标组', formulaIds: formulas.slice(0, 1).map((f) => f.id) },
      adminKey,
    ),
  );
}
