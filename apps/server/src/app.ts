import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { adminEnvelopeRoutes } from './admin/envelope.js';
import { adminRoutes } from './admin/routes.js';
import { annotationRoutes } from './annotations/routes.js';
import { freeAccessRoutes } from './auth/free-access.js';
import { handoffRoutes } from './auth/handoff.js';
import { authRoutes } from './auth/routes.js';
import { backupRoutes } from './backup/routes.js';
import { cleaningRoutes } from './cleaning/routes.js';
import { clinicalRoutes } from './clinical/routes.js';
import { codingRoutes } from './coding/routes.js';
import { hl7Routes } from './collection/hl7/routes.js';
import { collectionRoutes } from './collection/routes.js';
import type { Config } from './config.js';
import { crfRoutes } from './crf/routes.js';
import { dataElementRoutes } from './data-elements/routes.js';
import { dataFactoryRoutes } from './data-factory/routes.js';
import { dataModelRoutes } from './data-models/routes.js';
import { dataQcRoutes } from './data-qc/routes.js';
import { AutoAnalyze } from './db/analyze.js';
import { type Database, openDatabase } from './db/client.js';
import { diseaseLibraryRoutes } from './disease-library/routes.js';
import { formulaRoutes } from './formulas/routes.js';
import { healthRoutes } from './health/routes.js';
import { errorHandler } from './http/error-handler.js';
import { type LogSetup, loggerOptions } from './http/logging.js';
import { noStorePlugin } from './http/no-store.js';
import { securityPlugin } from './http/security.js';
import { textGuardPlugin } from './http/text-guard.js';
import { jobRoutes } from './jobs/routes.js';
import { federatedRoutes } from './multicenter/federated-routes.js';
import { multiCenterRoutes } from './multicenter/routes.js';
import { noticeRoutes } from './notices/routes.js';
import { observationRoutes } from './observation/routes.js';
import { odmRoutes } from './odm/routes.js';
import { omopRoutes } from './omop/routes.js';
import { parsingPlugin } from './parsing/pool.js';
import { recordQcRoutes } from './record-qc/routes.js';
import { referenceRoutes } from './reference/routes.js';
import { reportRoutes } from './reports/routes.js';
import { externalDatasetRoutes } from './research/external/routes.js';
import { researchRoutes } from './research/routes.js';
import { ruleRoutes } from './rules/routes.js';
import { schedulingRoutes } from './scheduling/routes.js';
import { scientificDatabaseRoutes } from './scientific-database/routes.js';
import type { DemoAccount } from './seed/demo.js';
import { demoHospitalRoutes } from './seed/hospital/routes.js';
import { prepareData } from './seed/index.js';
import { siteRoutes } from './site/routes.js';
import { t0Routes } from './t0/routes.js';
import { terminologyRoutes } from './terminology/routes.js';
import { variableRoutes } from './variables/routes.js';
import { visualizationRoutes } from './visualization/routes.js';
import { webRoutes } from './web/routes.js';

export interface BuildOptions {
  config: Config;
  /** An open database; when absent one is opened from the config and closed with the app. */
  database?: Database;
  /**
   * `false` for no log; otherwise the level and where lines go (tests collect them). The app's
   * serializers and redaction (`http/logging.ts`) apply to every logger it builds.
   */
  logger?: false | Partial<LogSetup>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Demo accounts created by this start, or null when none were created. */
    demoAccounts: DemoAccount[] | null;
    /** Planner statistics of the embedded database (null on PostgreSQL, whose autovacuum does it). */
    statistics: AutoAnalyze | null;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** helmet's options: a strict content security policy for the single-page web app. */
const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
} as const;

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
let helmetHeaders: Record<string, string> | undefined;

/**
 * The headers helmet sets with `HELMET_OPTIONS` (the helmet of @fastify/helmet, whose plugin
 * built its middleware again on every request: parsing the policy was 4 % of the server's time
 * under bench/load.ts). None depends on the request, so they are read once from a recording
 * response and set as they are on every answer.
 */
export function securityHeaders(): Record<string, string> {
  if (helmetHeaders) return helmetHeaders;
  const fromPlugin = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'));
  const helmet = fromPlugin('helmet') as (options: typeof HELMET_OPTIONS) => HelmetMiddleware;
  const recorded: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      recorded[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete recorded[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failed: unknown;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder, (err) => {
    failed = err;
  });
  if (failed) throw failed;
  helmetHeaders = recorded;
  return recorded;
}

/**
 * Builds the app in three layers: external plugins (docs, security headers, rate limits),
 * app plugins (database, sessions and access), then the routes of every domain area.
 * `main.ts` only listens, so tests build the app and call it.
 */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions({ level: config.logLevel, ...(opts.logger ?? {}) }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
    // The router's own refusals (a malformed %-escape, an over-long parameter) go through the
    // one error handler too, so they are worded in the reader's language like every other error.
    frameworkErrors: (error, req, reply) => errorHandler(error, req, reply),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);

  const database =
    opts.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      readUrl: config.databaseReadUrl,
    }));
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('readDb', database.readDb);
  app.decorate('config', config);
  app.decorate('localToken', randomBytes(32).toString('base64url'));
  if (!opts.database) app.addHook('onClose', async () => database.close());
  const statistics = database.kind === 'pglite' ? new AutoAnalyze(database, app.log) : null;
  app.decorate('statistics', statistics);
  if (statistics) {
    app.addHook('onReady', async () => statistics.start());
    app.addHook('preClose', async () => statistics.stop());
  }
  const prepared = await prepareData(database.db, config);
  app.decorate('demoAccounts', prepared.demo);

  // The security headers are the same on every answer: worked out once, set by one cheap hook.
  const headers = securityHeaders();
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'CRDP API', version: '0.1.0', description: 'Clinical research data platform' },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'WeAppAuthorization' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Uploaded files (ODM, REDCap, CSV, FHIR) are parsed in worker threads, off the event loop.
  await app.register(parsingPlugin);
  await app.register(securityPlugin);
  // Cache-Control: no-store on every /api/ answer (they may carry patient data), errors included.
  await app.register(noStorePlugin);
  // NUL, control characters and lone surrogates anywhere in a request: a 400 naming the value, before any handler.
  await app.register(textGuardPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(freeAccessRoutes);
  await app.register(handoffRoutes);
  await app.register(siteRoutes);
  await app.register(noticeRoutes);
  await app.register(backupRoutes);
  await app.register(jobRoutes);
  await app.register(clinicalRoutes);
  await app.register(adminEnvelopeRoutes);
  await app.register(adminRoutes);
  await app.register(crfRoutes);
  await app.register(researchRoutes);
  await app.register(multiCenterRoutes);
  await app.register(visualizationRoutes);
  await app.register(diseaseLibraryRoutes);
  await app.register(omopRoutes);
  await app.register(observationRoutes);
  await app.register(odmRoutes);
  await app.register(dataQcRoutes);
  await app.register(schedulingRoutes);
  await app.register(referenceRoutes);
  await app.register(t0Routes);
  await app.register(reportRoutes);
  await app.register(dataFactoryRoutes);
  await app.register(collectionRoutes);
  await app.register(hl7Routes);
  await app.register(formulaRoutes);
  await app.register(terminologyRoutes);
  await app.register(codingRoutes);
  await app.register(ruleRoutes);
  await app.register(recordQcRoutes);
  await app.register(dataElementRoutes);
  await app.register(cleaningRoutes);
  await app.register(variableRoutes);
  await app.register(annotationRoutes);
  await app.register(externalDatasetRoutes);
  await app.register(federatedRoutes);
  await app.register(scientificDatabaseRoutes);
  await app.register(dataModelRoutes);
  await app.register(demoHospitalRoutes);
  await app.register(webRoutes);
  return app;
}
