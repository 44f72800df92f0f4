import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

/**
 * A small HIS-like source database for collection tests: patients (病人) and lab results (检验)
 * as a hospital system keeps them (sex as M/F, dates as text in the system's own layouts, a
 * change time per row). On PostgreSQL (SOURCE_PG_URL, default the machine's 127.0.0.1:5432) and
 * on MariaDB/MySQL (SOURCE_MYSQL_URL, default root@127.0.0.1:3306). Each test makes its own
 * database and drops it; when the server is not there, `null` and the reason, said in one line.
 */
export interface HisSource {
  config: { host: string; port: number; database: string; user: string };
  password: string;
  exec(sql: string, values?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

const PATIENTS = [
  ['H001', '张伟', 'M', '19650312', '2026-03-01 08:00:00'],
  ['H002', '李娜', 'F', '19720105', '2026-03-01 08:05:00'],
  ['H003', '王芳', 'F', '19800229', '2026-03-01 08:10:00'],
] as const;
const LABS = [
  [1, 'H001', 'ALT', '丙氨酸氨基转移酶', '56', 'U/L', '2026-03-02 09:00:00', '2026-03-02 10:00:00'],
  [2, 'H001', 'CREA', '肌酐', '1.2', 'mg/dL', '2026-03-02 09:00:00', '2026-03-02 10:00:00'],
  [3, 'H002', 'ALT', '丙氨酸氨基转移酶', '23', 'U/L', '2026-03-03 09:00:00', '2026-03-03 10:00:00'],
  // A date the system wrote wrong: refused with its reason, the rest go on.
  [4, 'H002', 'AST', '天门冬氨酸氨基转移酶', '30', 'U/L', '2026-02-30 09:00:00', '2026-03-03 10:00:00'],
  // A patient the source never sent: refused (collect the patients first).
  [5, 'H999', 'ALT', '丙氨酸氨基转移酶', '40', 'U/L', '2026-03-04 09:00:00', '2026-03-04 10:00:00'],
] as const;

const pgUrl = () => process.env.SOURCE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `prefix` goes before every patient number, so stories that share a CDR never meet each other's patients. */
export async function openHisPg(prefix = ''): Promise<HisSource | { skip: string }> {
  const admin = new pg.Client({ connectionString: pgUrl(), connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    return {
      skip: `no PostgreSQL source database at ${pgUrl()} (${(e as Error).message}): collection from PostgreSQL not tested`,
    };
  }
  const database = `crdp_his_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database}`);
  const u = new URL(pgUrl());
  const config = {
    host: u.hostname,
    port: Number(u.port || 5432),
    database,
    user: decodeURIComponent(u.username || 'postgres'),
  };
  const c = new pg.Client({ ...config, password: decodeURIComponent(u.password) });
  await c.connect();
  await c.query(`create schema his;
    create table his.patient (patient_no text primary key, name text not null, sex text, birth text, id_card text, updated_at timestamptz not null);
    create table his.lab_result (result_id integer primary key, patient_no text, item text, item_name text, val text, unit text, taken text, updated_at timestamptz not null);`);
  for (const p of PATIENTS)
    await c.query('insert into his.patient values ($1,$2,$3,$4,$5,$6::timestamptz)', [
      `${prefix}${p[0]}`,
      ...p.slice(1, 4),
      '',
      `${p[4]}+08`,
    ]);
  for (const l of LABS)
    await c.query('insert into his.lab_result values ($1,$2,$3,$4,$5,$6,$7,$8::timestamptz)', [
      l[0],
      `${prefix}${l[1]}`,
      ...l.slice(2, 7),
      `${l[7]}+08`,
    ]);
  return {
    config,
    password: decodeURIComponent(u.password) || 'unused-with-trust-auth',
    exec: async (sql, values = []) => {
      await c.query(sql, values);
    },
    drop: async () => {
      await c.end();
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}

const myUrl = () => process.env.SOURCE_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export async function openHisMysql(): Promise<HisSource | { skip: string }> {
  let admin: mysql.Connection;
  try {
    admin = await mysql.createConnection({ uri: myUrl(), connectTimeout: 3000 });
  } catch (e) {
    return {
      skip: `no MariaDB/MySQL source database at ${myUrl()} (${(e as Error).message}): collection from MySQL not tested`,
    };
  }
  const database = `crdp_his_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database} character set utf8mb4`);
  await admin.query(`use ${database}`);
  await admin.query(
    'create table patient (patient_no varchar(20) primary key, name varchar(50) not null, sex char(1), birth varchar(8), id_card varchar(18), updated_at datetime not null)',
  );
  await admin.query(
    'create table lab_result (result_id int primary key, patient_no varchar(20), item varchar(20), item_name varchar(50), val varchar(20), unit varchar(20), taken varchar(20), updated_at datetime not null)',
  );
  for (const p of PATIENTS)
    await admin.query('insert into patient values (?,?,?,?,?,?)', [...p.slice(0, 4), '', p[4]]);
  for (const l of LABS) await admin.query('insert into lab_result values (?,?,?,?,?,?,?,?)', [...l]);
  const u = new URL(myUrl());
  return {
    config: {
      host: u.hostname,
      port: Number(u.port || 3306),
      database,
      user: decodeURIComponent(u.username || 'root'),
    },
    password: decodeURIComponent(u.password),
    exec: async (sql, values = []) => {
      await admin.query(sql, values);
    },
    drop: async () => {
      await admin.query(`drop database if exists ${database}`).catch(() => {});
      await admin.end();
    },
  };
}

/** A template field: the gender column, its male and female values mapped to 1 and 2. */
export const genderField = (column: string, male = 'M', female = 'F') => ({
  field: 'gender',
  column,
  transforms: [
    {
      kind: 'map',
      pairs: [
        { from: male, to: '1' },
        { from: female, to: '2' },
      ],
    },
  ],
});

/** The templates of the HIS: patients, then lab results that name their patient by its number. */
export const hisTemplates = (sourceId: number, schema = 'his.') => ({
  patients: {
    name: `病人-${sourceId}`,
    sourceId,
    target: 'patients',
    spec: {
      table: `${schema}patient`,
      keyColumn: 'patient_no',
      watermarkColumn: 'updated_at',
      fields: [
        { field: 'mrn', column: 'patient_no' },
        { field: 'name', column: 'name', transforms: [{ kind: 'trim' }] },
        genderField('sex'),
        { field: 'birthDate', column: 'birth', transforms: [{ kind: 'date', format: 'yyyyMMdd' }] },
        { field: 'nationalId', column: 'id_card' },
      ],
    },
  },
  labs: {
    name: `检验-${sourceId}`,
    sourceId,
    target: 'labResults',
    spec: {
      table: `${schema}lab_result`,
      keyColumn: 'result_id',
      watermarkColumn: 'updated_at',
      patientColumn: 'patient_no',
      fields: [
        { field: 'itemCode', column: 'item' },
        { field: 'itemName', column: 'item_name' },
        { field: 'valueNum', column: 'val' },
        { field: 'unit', column: 'unit' },
        {
          field: 'collectedAt',
          column: 'taken',
          transforms: [{ kind: 'date', format: 'yyyy-MM-dd HH:mm:ss' }],
        },
      ],
    },
  },
});
