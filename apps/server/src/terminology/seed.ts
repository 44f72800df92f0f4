import { readFile } from 'node:fs/promises';
import type { TerminologyDomain } from '@crdp/core';
import { count, sql } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { terminologySystems } from '../db/schema/index.js';
import { parseCsv } from '../files/csv.js';
import { readConceptRows, storeStandardConcepts } from './load.js';

/** A code system the site knows from the start, with the list shipped in data/ (or none). */
export interface BuiltinSystem {
  systemKey: string;
  nameZh: string;
  nameEn: string;
  domain: TerminologyDomain;
  version: string;
  licence: string;
  sourceUrl: string;
  uri: string;
  /** The shipped list in apps/server/terminologies, or null where no licensed public list exists (loaded by CSV). */
  file: string | null;
}

export const BUILTIN_SYSTEMS: readonly BuiltinSystem[] = [
  {
    systemKey: 'ICD10',
    nameZh: 'ICD-10 疾病分类（中文类目）',
    nameEn: 'ICD-10 diagnoses (Chinese categories)',
    domain: 'disease',
    version: 'ICD-10-CN categories (chaseliu/ICD-10-CN 3a314c1)',
    licence: 'MIT © 2017 Chase Liu',
    sourceUrl: 'https://github.com/chaseliu/ICD-10-CN',
    uri: 'http://hl7.org/fhir/sid/icd-10-cn',
    file: 'icd10-cn.csv',
  },
  {
    systemKey: 'ICD9CM3',
    nameZh: 'ICD-9-CM-3 手术操作分类',
    nameEn: 'ICD-9-CM-3 operations',
    domain: 'surgery',
    version: '',
    licence: '',
    sourceUrl: '',
    uri: 'urn:crdp:icd-9-cm-3',
    file: null,
  },
  {
    systemKey: 'LOINC',
    nameZh: 'LOINC 检验项目',
    nameEn: 'LOINC lab tests',
    domain: 'lab',
    version: '2.83 (cn-health-data laboratory-cn 0b999e1)',
    licence: 'LOINC licence (loinc.org/license); Chinese names MIT (cn-health-data)',
    sourceUrl: 'https://loinc.org',
    uri: 'http://loinc.org',
    file: 'lab-loinc-cn.csv',
  },
  {
    systemKey: 'DRUG',
    nameZh: '药品目录',
    nameEn: 'Drug catalogue',
    domain: 'drug',
    version: '',
    licence: '',
    sourceUrl: '',
    uri: 'urn:crdp:drug',
    file: null,
  },
];

/** The shipped lists: apps/server/terminologies, two levels up from src/terminology and dist/terminology. */
const SHIPPED = new URL('../../terminologies/', import.meta.url);
const shippedText = (file: string) => readFile(new URL(file, SHIPPED), 'utf8');

const seeded = new WeakMap<Db, Promise<void>>();

/**
 * Makes the built-in code systems and loads their shipped lists, once per database (the first
 * read of the store calls it; another process racing it waits on the lock and finds the work
 * done). System path: standard codes belong to no app.
 */
export function ensureTerminologies(db: Db): Promise<void> {
  let p = seeded.get(db);
  if (!p) {
    p = seedOnce(db).catch((e) => {
      seeded.delete(db);
      throw e;
    });
    seeded.set(db, p);
  }
  return p;
}

async function seedOnce(db: Db) {
  const [have] = await db.select({ n: count() }).from(terminologySystems);
  if ((have?.n ?? 0) >= BUILTIN_SYSTEMS.length) return;
  await db.transaction(async (tx) => {
    // One seeder at a time across processes; the second finds the work done.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crdp.terminology.seed'))`);
    const made = await tx
      .insert(terminologySystems)
      .values(BUILTIN_SYSTEMS.map(({ file: _f, version: _v, ...s }) => ({ ...s, version: '' })))
      .onConflictDoNothing()
      .returning({ systemKey: terminologySystems.systemKey });
    const fresh = new Set(made.map((m) => m.systemKey));
    const loaded: Record<string, number> = {};
    for (const s of BUILTIN_SYSTEMS) {
      if (!fresh.has(s.systemKey) || !s.file) continue;
      const { good, faults } = readConceptRows(parseCsv(await shippedText(s.file)), 'en-US');
      if (faults.length) throw new Error(`terminologies/${s.file}: ${faults[0]!.message}`);
      await storeStandardConcepts(tx, s.systemKey, s.version, good);
      loaded[s.systemKey] = good.length;
    }
    if (fresh.size)
      await audit(tx, null, {
        action: 'terminology.seed',
        entity: 'terminology_system',
        entityId: [...fresh].join(','),
        after: loaded,
      });
  });
}
