import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../../auth/passwords.js';
import {
  appMembers,
  apps,
  functions,
  roleFunctions,
  roles,
  roleUsers,
  users,
} from '../../db/schema/index.js';
import { get, post, signIn, TEST_PASSWORD } from '../../test/helper.js';

/** The Synthea FHIR R4 bundles shipped with the repository (fixtures/SOURCES.md). */
export const SYNTHEA_DIR = fileURLToPath(new URL('../../../../../fixtures/synthea/', import.meta.url));

/** The first Synthea bundle of the shared test data (Kermit Trantow). */
export function syntheaBundle(): { name: string; bundle: Record<string, unknown> } {
  const file = readdirSync(SYNTHEA_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()[0]!;
  return { name: file, bundle: JSON.parse(readFileSync(path.join(SYNTHEA_DIR, file), 'utf8')) };
}

/** A member of the demo app whose one role holds exactly the given functions. */
export async function demoUserWith(app: FastifyInstance, userName: string, apiIds: string[]) {
  const [demo] = await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  const [u] = await app.db
    .insert(users)
    .values({ userName, passwordHash: await hashPassword(TEST_PASSWORD) })
    .returning();
  await app.db.insert(appMembers).values({ appId: demo!.appId, userId: u!.userId });
  const [role] = await app.db
    .insert(roles)
    .values({ appId: demo!.appId, roleName: `role-${userName}` })
    .returning();
  const funcs = await app.db.select().from(functions).where(inArray(functions.apiId, apiIds));
  if (funcs.length) {
    await app.db.insert(roleFunctions).values(funcs.map((f) => ({ roleId: role!.roleId, funcId: f.funcId })));
  }
  await app.db.insert(roleUsers).values({ roleId: role!.roleId, userId: u!.userId });
  return signIn(app, userName);
}

/** Polls an import record until its job is done. */
export async function waitForImport(app: FastifyInstance, key: string, id: number) {
  for (let i = 0; i < 300; i++) {
    await app.jobs.drain();
    const r = await get(app, `/api/v0.1/imports/${id}`, key);
    if (!['queued', 'running'].includes(r.body.data?.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`import ${id} did not finish`);
}

/**
 * Starts the CSV import of two patients with Chinese headers (病案号, 姓名, 性别, 出生日期), the
 * second with a birth date no calendar has (1975-13-01): the import call's answer.
 */
export const importTwoPatientsCsv = (app: FastifyInstance, key: string, mrns: [string, string]) =>
  post(
    app,
    '/api/v0.1/imports/csv',
    {
      fileName: 'patients.csv',
      table: 'patients',
      mapping: { mrn: '病案号', name: '姓名', gender: '性别', birthDate: '出生日期' },
      text: `病案号,姓名,性别,出生日期\n${mrns[0]},赵六,1,1960-05-01\n${mrns[1]},"钱七",2,1975-13-01\n`,
    },
    key,
  );

/** Adds a row of a CDR table (`table` as the records call names it) to a patient; throws unless stored. */
export async function addRecord(
  app: FastifyInstance,
  key: string,
  patient: number,
  table: string,
  row: object,
) {
  const r = await post(app, `/api/v0.1/cdr/patients/${patient}/records`, { table, row }, key);
  if (r.status !== 200)
    throw new Error(`${table} of patient ${patient}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** ALT results (U/L), each [patient, value, day]; collected at 08:00 of the day in `zone`. */
export async function addAltResults(
  app: FastifyInstance,
  key: string,
  results: ReadonlyArray<readonly [number, number, string]>,
  zone = '+08:00',
) {
  for (const [patient, valueNum, day] of results)
    await addRecord(app, key, patient, 'labResults', {
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum,
      unit: 'U/L',
      collectedAt: `${day}T08:00:00${zone}`,
    });
}
