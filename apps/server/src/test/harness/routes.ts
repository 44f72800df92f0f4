import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { envelopeRegistry } from '../../envelope/envelope.js';
import type { DeclaredRoute } from '../../http/access.js';

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: Record<string, unknown> }>;
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}

export interface HarnessRoute extends DeclaredRoute {
  body?: Record<string, unknown>;
  query?: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] };
  pathParams: string[];
}

/** Every declared route with its schemas from the OpenAPI document the server publishes. */
export function harnessRoutes(app: FastifyInstance): HarnessRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  return app.declaredRoutes.map((r) => {
    const openApiPath = r.url.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[openApiPath]?.[r.method.toLowerCase()];
    if (!op) throw new Error(`${r.method} ${r.url} is declared but missing from the OpenAPI document`);
    const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
    return {
      ...r,
      body: op.requestBody?.content?.['application/json']?.schema,
      query: queryParams.length
        ? {
            type: 'object',
            properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
            required: queryParams.filter((p) => p.required).map((p) => p.name),
          }
        : undefined,
      pathParams: [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!),
    };
  });
}

export interface HarnessMethod {
  path: string;
  method: string;
  access: 'public' | 'session' | { apiId: string };
  params: Record<string, unknown>;
}

/** Every envelope method with the JSON schema of its params. */
export function harnessMethods(): HarnessMethod[] {
  return [...envelopeRegistry.entries()].flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, m]) => ({
      path,
      method,
      access: m.access,
      params: z.toJSONSchema(m.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    })),
  );
}
