import { researchCatalogueItem, researchCatalogueQuery, restOk } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbiddenFunction } from '../http/errors.js';
import { variableCatalogue } from '../research/catalogue.js';

/** Whoever writes source rules: on create-library, on a library's CRF page, on common templates. */
export const RULE_WRITER_API_IDS = [
  'ZhuanbingCreateLibrary.add',
  'ZhuanbingLibraryList.edit',
  'ZhuanbingCommonlyTemplate.add',
  'ZhuanbingCommonlyTemplate.edit',
] as const;

/**
 * The lab items and diagnosis categories of the app's data, searched as a person types in the
 * indicator rule builder (the research variable catalogue's query, for the disease library's
 * functions: a library builder need not be allowed to create research subjects).
 */
export async function ruleCatalogueRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0.1/diseaselibrary/rule-catalogue',
    {
      config: { access: 'session' },
      schema: {
        tags: ['disease-library'],
        summary:
          "Lab items and diagnosis categories of the app's data, for the indicator rule builder (needs one of the functions that write source rules)",
        querystring: researchCatalogueQuery,
        response: { 200: restOk(z.array(researchCatalogueItem)) },
      },
    },
    async (req) => {
      const auth = req.auth!;
      if (auth.kind !== 'login' || !RULE_WRITER_API_IDS.some((id) => auth.apiIds.has(id)))
        throw forbiddenFunction(RULE_WRITER_API_IDS[0]);
      return {
        code: 200 as const,
        data: await variableCatalogue(app.db, auth.appId, req.query),
        message: 'ok',
      };
    },
  );
}
