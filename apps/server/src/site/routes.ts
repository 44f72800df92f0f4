import {
  moduleConfigQuery,
  moduleConfigValue,
  restOk,
  siteSettings as siteSettingsContract,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readConfigValue, siteSettings } from './service.js';

export async function siteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0.1/site',
    {
      config: { access: 'public' },
      schema: {
        tags: ['site'],
        summary: 'Titles, logo, environment name and feature mode for the login page and shell',
        response: { 200: restOk(siteSettingsContract) },
      },
    },
    async (req) => ({
      code: 200 as const,
      data: await siteSettings(app.db, req.ctx.auth?.appId ?? null),
      message: 'ok',
    }),
  );
  r.get(
    '/api/v0.1/cdm/module_config_one',
    {
      config: { access: 'session', freeScope: 'crf' },
      schema: {
        tags: ['site'],
        summary:
          "One configuration value (site environment, feature modules; 'multi-center' switches that mode on)",
        querystring: moduleConfigQuery,
        response: { 200: restOk(moduleConfigValue) },
      },
    },
    async (req) => {
      const { config_group, module_name, config_name } = req.query;
      const value = await readConfigValue(
        app.db,
        req.ctx.auth?.appId ?? null,
        config_group,
        module_name,
        config_name,
      );
      return { code: 200 as const, data: { value }, message: 'ok' };
    },
  );
}
