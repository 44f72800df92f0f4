import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../auth/passwords.js';
import { makeCleaningObjects } from '../../cleaning/test/fixtures.js';
import { makeClinicalObjects } from '../../clinical/test/fixtures.js';
import { makeCollectionObjects } from '../../collection/test/fixtures.js';
import { LIVER_FORM, registerPatients } from '../../crf/testform.js';
import { makeDataModelObjects } from '../../data-models/test/fixtures.js';
import { makeDataQcObjects } from '../../data-qc/test/fixtures.js';
import { appMembers, appProducts, apps, moduleConfig, roles, roleUsers } from '../../db/schema/index.js';
import { makeDiseaseLibraryObjects } from '../../disease-library/test/fixtures.js';
import { makeFormulaObjects } from '../../formulas/test/fixtures.js';
import { makeObservationOdmObjects } from '../../odm/test/fixtures.js';
import { makeOmopObjects } from '../../omop/test/fixtures.js';
import { makeReferenceObjects } from '../../reference/test/fixtures.js';
import { makeReportObjects } from '../../reports/test/fixtures.js';
import { makeSchedulingObjects } from '../../scheduling/test/fixtures.js';
import { makeScientificDatabaseObjects } from '../../scientific-database/test/fixtures.js';
import { makeVariableObjects } from '../../variables/test/fixtures.js';
import { makeVisualizationObjects } from '../../visualization/test/fixtures.js';
import { post, signIn, TEST_PASSWORD } from '../helper.js';

/**
 * Objects of every kind in the demo app, made through the API, so the matrix can ask for
 * their real ids from elsewhere. Each area adds its objects here.
 */
export async function makeObjectsInDemoApp(app: FastifyInstance, adminKey: string) {
  await post(app, '/api/v0.1/free_access', { scopeKind: 'term', label: 'matrix fixture' }, adminKey);
  await post(
    app,
    '/api/v0.1/free_access',
    { scopeKind: 'crf', objectId: 'matrix-form', label: 'matrix fixture' },
    adminKey,
  );
  await post(app, '/api/v0.1/disease', { name: '矩阵疾病', icd10: 'I10', category: '心血管' }, adminKey);
  await makeClinicalObjects(app, adminKey);
  // CRF: a form with a published version 1, a submitted record and an upload.
  const form = await post(app, '/api/v0.1/crf/forms', { name: '矩阵表单', definition: LIVER_FORM }, adminKey);
  const formId = form.body.data.id as number;
  await post(app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'matrix' }, adminKey);
  await registerPatients(app, ['M-1']);
  await post(
    app,
    `/api/v0.1/crf/forms/${formId}/records`,
    { subjectCode: 'M-1', submit: true, answers: { weight: 60, height: 170, hbsag: 'neg' } },
    adminKey,
  );
  await post(
    app,
    `/api/v0.1/crf/forms/${formId}/uploads`,
    {
      fileName: 'matrix.txt',
      contentType: 'text/plain',
      dataBase64: Buffer.from('matrix').toString('base64'),
    },
    adminKey,
  );
  await makeVisualizationObjects(app, adminKey);
  await makeDataQcObjects(app, adminKey);
  // Research: a project type, a subject in data preparation and its dataset.
  await post(app, '/api/v0.1/research/types', { code: 'matrix', name: '矩阵类型' }, adminKey);
  const subject = await post(
    app,
    '/api/v0.1/research/subjects',
    { name: '矩阵课题', variables: [{ key: 'age', label: '年龄', source: 'age' }] },
    adminKey,
  );
  const sid = subject.body.data.id as number;
  for (const to of ['recruiting', 'recruitmentStopped', 'dataPreparing'])
    await post(app, `/api/v0.1/research/subjects/${sid}/status`, { to }, adminKey);
  await post(app, `/api/v0.1/research/subjects/${sid}/datasets`, { name: '矩阵数据集' }, adminKey);
  await app.jobs.drain();
  // Multi-center: the demo app switched to multi-center mode leads a topic.
  const [leadApp] = await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  await app.db.insert(moduleConfig).values({
    appId: leadApp!.appId,
    configGroup: 'site',
    moduleName: 'features',
    configName: 'mode',
    value: 'multi-center',
  });
  await post(
    app,
    '/api/v0.1/mc/topics',
    { name: '矩阵主题', variables: [{ key: 'sbp', label: '收缩压' }] },
    adminKey,
  );
  const [demoApp] = await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  await makeDiseaseLibraryObjects(app, adminKey, demoApp!.appId);
  await makeOmopObjects(app, adminKey);
  await makeSchedulingObjects(app, adminKey);
  await makeReferenceObjects(app, adminKey);
  await makeFormulaObjects(app, adminKey);
  await makeReportObjects(app, adminKey);
  await makeCollectionObjects(app, adminKey);
  await makeCleaningObjects(app, adminKey);
  // A data element (issue 19): its id is addressed by path.
  await post(
    app,
    '/api/v0.1/data-elements',
    { code: 'MATRIX_DE', definition: { name: '矩阵数据元', type: 'number' } },
    adminKey,
  );
  await makeVariableObjects(app, adminKey);
  await makeScientificDatabaseObjects(app, adminKey);
  await makeDataModelObjects(app, adminKey);
  await makeObservationOdmObjects(app, adminKey, demoApp!.appId);
}

/** A second hospital whose administrator holds the same role rights as the demo administrator. */
export async function otherAppAdministrator(app: FastifyInstance) {
  const [other] = await app.db.insert(apps).values({ appShortName: 'MATRIX', name: '矩阵医院' }).returning();
  await app.db.insert(appProducts).values({ appId: other!.appId, productId: 22 });
  const { users } = await import('../../db/schema/index.js');
  const [u] = await app.db
    .insert(users)
    .values({ userName: 'matrixadmin', passwordHash: await hashPassword(TEST_PASSWORD) })
    .returning();
  await app.db.insert(appMembers).values({ appId: other!.appId, userId: u!.userId });
  const [demoRole] = await app.db.select().from(roles).where(eq(roles.roleName, '系统管理员'));
  const [role] = await app.db
    .insert(roles)
    .values({ appId: other!.appId, roleName: '系统管理员' })
    .returning();
  await app.db.execute(
    sql`insert into role_menus select ${role!.roleId}, menu_id from role_menus where role_id = ${demoRole!.roleId}`,
  );
  await app.db.execute(
    sql`insert into role_functions select ${role!.roleId}, func_id from role_functions where role_id = ${demoRole!.roleId}`,
  );
  await app.db.insert(roleUsers).values({ roleId: role!.roleId, userId: u!.userId });
  return { appId: other!.appId, key: await signIn(app, 'matrixadmin') };
}

/** A member of the demo app with no roles at all. */
export async function userWithoutRoles(app: FastifyInstance) {
  const { users } = await import('../../db/schema/index.js');
  const [u] = await app.db
    .insert(users)
    .values({ userName: 'matrixnobody', passwordHash: await hashPassword(TEST_PASSWORD) })
    .returning();
  const [demo] = await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  await app.db.insert(appMembers).values({ appId: demo!.appId, userId: u!.userId });
  return signIn(app, 'matrixnobody');
}
