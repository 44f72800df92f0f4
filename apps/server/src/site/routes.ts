import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readConfigValue, siteSettings } from './service.js';

const name = z.string().trim().min(1).max(100);

export async function siteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v0.1/site',
    {
      config: { access: 'public' },
      schema: {
        tags: ['site'],
        summary: 'Titles, logo, environment name and feature mode for the login page and shell',
      },
    },
    async (req) => ({ code: 200, data: await siteSettings(app.db, req.auth?.appId ?? null), message: 'ok' }),
  );
  r.get(
    '/api/v0.1/cdm/module_config_one',
    {
      config: { access: 'session', freeScope: 'crf' },
      schema: {
        tags: ['site'],
        summary:
          "One configuration value (site environment, feature modules; 'multi-center' switches that mode on)",
        querystring: z.object({ config_group: name, module_name: name, config_name: name }),
      },
    },
    async (req) => {
      const { config_group, module_name, config_name } = req.query;
      const value = await readConfigValue(
        app.db,
        req.auth?.appId ?? null,
        config_group,
        module_name,
        config_name,
      );
      return { code: 200, data: { value }, message: 'ok' };
    },
  );
}
