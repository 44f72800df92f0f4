import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPasswordPolicy, formatMessage } from '@crdp/core';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));

const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'], {
    error: 'must be one of 1, 0, true, false, on, off, yes, no',
  })
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** A streaming replica of DATABASE_URL's database: reads that tolerate lag go there (db/README.md). */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SESSION_TTL_MS: z.coerce.number({ error: 'must be a number' }).int().min(1000).default(7_200_000),
  DEMO_DATA: flag.optional(),
  DEMO_PATIENTS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(100_000).default(2000),
  // The password policy every account has (spec 000 section 5), worded in English for the operator.
  DEMO_PASSWORD: z
    .string()
    .superRefine((v, ctx) => {
      const policy = checkPasswordPolicy(v);
      if (!policy.ok) ctx.addIssue({ code: 'custom', message: formatMessage(policy.problem!, 'en-US') });
    })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  COMPANY_NAME: z.string().min(1).default('CRDP'),
  TRUST_PROXY: flag.default(false),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  PARSE_THREADS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(16).default(2),
  PARSE_QUEUE: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1000).default(16),
  JOB_CONCURRENCY: z.coerce.number({ error: 'must be a number' }).int().min(1).max(64).default(2),
  JOB_RETENTION_DAYS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(36_500).default(30),
  SCHEDULE_TICK_SECONDS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(3600).default(30),
  // 32 bytes in base64 or hex: the key that encrypts collection sources' passwords (collection/README.md).
  COLLECTION_SECRET_KEY: z
    .string()
    .refine(
      (v) => keyBytes(v) !== undefined,
      'must be 32 bytes written in base64 or hex (openssl rand -base64 32)',
    )
    .optional(),
  /** Starts the HL7 v2 listeners of enabled HL7 sources (off in tests that start their own). */
  HL7_LISTEN: flag.default(true),
  HL7_HOST: z.string().min(1).default('0.0.0.0'),
  /** The folder CSV and FHIR collection sources read from (each source names a folder inside it). */
  COLLECTION_FILES_ROOT: z.string().min(1).optional(),
});

/** A 32-byte key written in base64 or hex, or undefined. */
export function keyBytes(v: string): Buffer | undefined {
  const hex = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : undefined;
  const b = hex ?? Buffer.from(v, 'base64');
  return b.length === 32 ? b : undefined;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** A read replica of `databaseUrl` for lag-tolerant reads (lists, charts, exports, search); unset: the primary. */
  databaseReadUrl: string | undefined;
  dataDir: string;
  sessionTtlMs: number;
  demoData: boolean;
  /** Synthetic patients of the demo hospital (with DEMO_DATA); 0 makes only the accounts. */
  demoPatients: number;
  demoPassword: string | undefined;
  logLevel: string;
  webDist: string;
  companyName: string;
  trustProxy: boolean;
  /** Sign-in attempts allowed per client address per minute. */
  loginRateLimit: number;
  /** Worker threads that parse uploaded files, and parses that may wait for one (more: 503). */
  parseThreads: number;
  parseQueue: number;
  /** Background jobs one process runs at the same time (jobs/README.md). */
  jobConcurrency: number;
  /** Finished jobs older than this many days are deleted (kinds that keep their results excepted); 0 keeps all. */
  jobRetentionDays: number;
  /** Seconds between two looks for due schedules in each process (scheduling/scheduler.ts). */
  scheduleTickSeconds: number;
  /** The key of collection sources' passwords; without it, a key file in `dataDir` (collection/secrets.ts). */
  collectionSecretKey: Buffer | undefined;
  hl7Listen: boolean;
  hl7Host: string;
  /** CSV and FHIR sources read folders inside this one only (default `<DATA_DIR>/collection-files`). */
  collectionFilesRoot: string;
}

export class ConfigError extends Error {}

/** Variables whose values are never repeated in an error message. */
const SECRETS = new Set(['DEMO_PASSWORD', 'COLLECTION_SECRET_KEY']);

/** Reads the configuration from environment variables; a bad value stops the start with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = String(i.path[0]);
      // A secret's value never reaches the message (it would end in a terminal or a log).
      const shown = SECRETS.has(name) ? '' : `=${JSON.stringify(env[name])}`;
      return `  ${i.path.join('.')}${shown}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of which database?); the embedded database has no replica',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    dataDir: path.resolve(e.DATA_DIR),
    sessionTtlMs: e.SESSION_TTL_MS,
    demoData: e.DEMO_DATA ?? !e.DATABASE_URL,
    demoPatients: e.DEMO_PATIENTS,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(here, '../../web/dist')),
    companyName: e.COMPANY_NAME,
    trustProxy: e.TRUST_PROXY,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    parseThreads: e.PARSE_THREADS,
    parseQueue: e.PARSE_QUEUE,
    jobConcurrency: e.JOB_CONCURRENCY,
    jobRetentionDays: e.JOB_RETENTION_DAYS,
    scheduleTickSeconds: e.SCHEDULE_TICK_SECONDS,
    collectionSecretKey: e.COLLECTION_SECRET_KEY ? keyBytes(e.COLLECTION_SECRET_KEY) : undefined,
    hl7Listen: e.HL7_LISTEN,
    hl7Host: e.HL7_HOST,
    collectionFilesRoot: path.resolve(e.COLLECTION_FILES_ROOT ?? path.join(e.DATA_DIR, 'collection-files')),
  };
}
