import {
  conceptDetailFull as conceptDetailAnswer,
  conceptHitList,
  conceptQuery,
  conceptSearchQuery,
  conceptSummary,
  fhirExpandQuery,
  fhirLookupQuery,
  fhirParameters,
  fhirTranslateQuery,
  fhirValueSet,
  importReport,
  localCodeCreate,
  localCodeParams,
  NEW_CODE_SCREENS,
  OMOP_CONCEPT_URI,
  semanticAnswer,
  semanticBody,
  TERMINOLOGY_DOMAINS,
  terminologyImportBody,
  terminologyLookupAnswer,
  terminologyLookupBody,
  terminologySystemList,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { appActor, signedIn } from '../http/context.js';
import { restRoutes } from '../http/route.js';
import { addLocalCode, fhirLookup, importSystem, listSystems, lookup, search } from './concepts.js';
import { fhirExpand, fhirTranslate } from './fhir.js';
import { semantic } from './semantic.js';
import { conceptDetailFull } from './usage.js';

const V = '/api/v0.1';
const T = `${V}/terminology`;

/**
 * The terminology store (terminology/README.md). Reading is open to every signed-in screen and to
 * the free-access terminology view (/lg/term); adding a local code needs the new-code screen of
 * its domain; loading a full list is the basic-dictionary maintainer's.
 */
export async function terminologyRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['terminology'] });

  api.get(
    `${T}/systems`,
    {
      access: 'session',
      freeScope: 'term',
      summary: 'Code systems with version, licence, source and counts of standard and local codes',
      answer: terminologySystemList,
    },
    (req) => listSystems(db, appActor(req.ctx).appId),
  );
  api.get(
    `${T}/concepts`,
    {
      access: 'session',
      freeScope: 'term',
      summary: 'Search concepts by Chinese word, pinyin initials or code prefix, ranked',
      description:
        'Ranking: exact code > code prefix > exact name > name prefix > name contains > pinyin initials; ' +
        'synonyms match like names. Retired codes are left out.',
      query: conceptSearchQuery,
      answer: conceptHitList,
    },
    (req) => search(db, appActor(req.ctx).appId, req.query),
  );
  api.get(
    `${T}/concept`,
    {
      access: 'session',
      freeScope: 'term',
      summary:
        'One concept: synonyms, ancestors (root first), the codes directly under it, its mappings to other systems (standard ancestor, OMOP concept) and where this hospital’s data uses it (rows and patients as recorded and as coded)',
      query: conceptQuery,
      answer: conceptDetailAnswer,
    },
    (req) => conceptDetailFull(db, appActor(req.ctx).appId, req.query.system, req.query.code),
  );
  for (const domain of TERMINOLOGY_DOMAINS) {
    const screen = NEW_CODE_SCREENS[domain];
    api.post(
      `${T}/local-codes/${domain}`,
      {
        access: { apiId: `${screen.routeName}.add` },
        summary: `Add a local extension code to ${screen.systemKey} (never over a standard code: 409)`,
        body: localCodeCreate,
        answer: conceptSummary,
      },
      (req) => addLocalCode(signedIn(req.ctx), localCodeParams.parse({ domain }).domain, req.body),
    );
  }
  api.post(
    `${T}/import`,
    {
      access: { apiId: 'DataLakeBasicDictionaryMaintenance.import' },
      summary: 'Load a full list of a code system from CSV: all rows or none, with a row report',
      description:
        'Columns code, display_zh (required), display_en, parent_code, level, retired, synonyms (| between). ' +
        'Codes of the system the file leaves out are marked retired; local extension codes are not touched.',
      body: terminologyImportBody,
      bodyLimit: 60 * 1024 * 1024,
      answer: importReport,
    },
    (req) => importSystem(signedIn(req.ctx), app.parsing, req.body.systemKey, req.body),
  );
  // The spec writes `POST erminology/app`; both paths answer.
  for (const path of [`${T}/app`, `${V}/erminology/app`])
    api.post(
      path,
      {
        access: 'session',
        freeScope: 'term',
        summary: 'Look up codes (system + code) or terms (ranked search) in one call',
        body: terminologyLookupBody,
        answer: terminologyLookupAnswer,
      },
      (req) => lookup(appActor(req.ctx), req.body),
    );
  // The spec names `POST /api/terminology/semantic`; the versioned path answers the same.
  for (const path of ['/api/terminology/semantic', `${T}/semantic`])
    api.post(
      path,
      {
        access: 'session',
        freeScope: 'term',
        summary: 'Normalise a clinical phrase into concepts with spans (segmentation, synonyms, negation)',
        description:
          'Words by jieba; runs of up to six words in a clause looked up among names and synonyms of the ' +
          'store (abbreviations spelled out by the coding lexicon), longest span first, never overlapping; ' +
          'each concept says whether it is negated (无/否认/未见…), uncertain (疑似/考虑…), its relative time ' +
          'and laterality, with the cue spans. `systems` limits the code systems.',
        body: semanticBody,
        answer: semanticAnswer,
      },
      (req) => semantic(db, appActor(req.ctx).appId, req.body),
    );
  // FHIR R4 terminology operations on the same data: FHIR resources, not the REST envelope;
  // errors answer an OperationOutcome (`fhir` config).
  const fhir = (
    path: string,
    summary: string,
    description: string,
    querystring: z.ZodType,
    answer: z.ZodType,
    run: (q: never, appId: number) => Promise<unknown>,
  ) =>
    app.route({
      method: 'GET',
      url: `${V}/fhir/${path}`,
      config: { access: 'session', freeScope: 'term', fhir: true },
      schema: {
        tags: ['terminology', 'fhir'],
        summary,
        description: `${description} Errors answer a FHIR OperationOutcome (application/fhir+json).`,
        querystring,
        response: { 200: answer },
      },
      handler: async (req, reply) => {
        reply.type('application/fhir+json');
        return run(req.query as never, appActor(req.ctx).appId);
      },
    });
  fhir(
    'CodeSystem/$lookup',
    'FHIR R4 CodeSystem/$lookup: display, designations, parent and children of a code',
    'system = the code system canonical URI (CodeSystem.url), code = the code.',
    fhirLookupQuery,
    fhirParameters,
    (q: { system: string; code: string }, appId) => fhirLookup(db, appId, q.system, q.code),
  );
  fhir(
    'ValueSet/$expand',
    'FHIR R4 ValueSet/$expand: the codes of a code system, filtered and paged',
    'url = a code system canonical URI (or `<uri>?fhir_vs`) meaning all its codes (standard and this ' +
      "hospital's local ones, retired left out); filter = text the code starts with or the name, a synonym " +
      'or the pinyin initials hold; count (0-1000, default 100) and offset page. Answers a ValueSet with ' +
      'expansion.total and contains[].',
    fhirExpandQuery,
    fhirValueSet,
    (q: z.output<typeof fhirExpandQuery>, appId) => fhirExpand(db, appId, q),
  );
  fhir(
    'ConceptMap/$translate',
    'FHIR R4 ConceptMap/$translate: a code into another system (local → standard, ICD-10 ↔ OMOP)',
    `system + code + targetsystem. Same system: a local extension code → its nearest standard ancestor ` +
      `(equivalence wider). ICD-10, LOINC or drug code → OMOP concept (${OMOP_CONCEPT_URI}, concept_id as code) ` +
      "through this hospital's OMOP maps, and back. Answers Parameters with result, message and match[] " +
      '(equivalence, concept, source); nothing mapped is result false.',
    fhirTranslateQuery,
    fhirParameters,
    (q: z.output<typeof fhirTranslateQuery>, appId) => fhirTranslate(db, appId, q),
  );
}
