import { envelopeOk } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ResponseSerializationError, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badRequest, bilingual } from '../http/errors.js';
import { assertAccess } from '../http/security.js';
import { issueText } from '../http/validation-messages.js';

/**
 * The envelope calls of spec 000 section 7: `POST path` with `{ method, params }`, a single
 * value wrapped into an array. Each method declares its access, its params schema and its
 * result schema (contracts of @crdp/core), the same way a REST route does; the registry is
 * exported so tests can walk every method.
 */
export interface EnvelopeMethod<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  access: 'public' | 'session' | { apiId: string };
  /** Schema of the params array. */
  params: P;
  /**
   * Schema of the result: the answer is `{ code: 0, result }` with the handler's value parsed by
   * it (keys it does not name are dropped; a value that does not match is a 500, logged).
   */
  result: R;
  summary: string;
  handler: (req: FastifyRequest, params: z.output<P>) => Promise<z.input<R>>;
}

export type EnvelopeMethods = Record<string, EnvelopeMethod>;

export const defineMethod = <P extends z.ZodType, R extends z.ZodType>(
  m: EnvelopeMethod<P, R>,
): EnvelopeMethod => m as unknown as EnvelopeMethod;

/** Every envelope path and its methods, filled as routes register. */
export const envelopeRegistry = new Map<string, EnvelopeMethods>();

const envelopeBody = z.object({
  method: z.string().min(1).max(100),
  params: z.unknown().optional(),
});

/** The first problems of the params, in both languages (zod's English, the Chinese of validation-messages). */
function describeIssues(error: z.ZodError, params: unknown[]) {
  const lines = error.issues.slice(0, 5).map((i) => {
    const where = `params${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
    const text = issueText(i, params);
    return { zh: `${where}: ${text['zh-CN']}`, en: `${where}: ${text['en-US']}` };
  });
  return bilingual(lines.map((l) => l.zh).join('；'), lines.map((l) => l.en).join('; '));
}

/**
 * The documented answer of an envelope path: `{ code: 0, result }` where `result` is one of the
 * methods' results (each titled with its method). The route's serializer passes `result` as the
 * method left it: each method's own schema has already parsed it.
 */
function envelopeResponse(methods: EnvelopeMethods) {
  const results = Object.entries(methods).map(([name, m]) => {
    const { $schema: _drop, ...json } = z.toJSONSchema(m.result, { io: 'output', unrepresentable: 'any' });
    return { title: name, ...json };
  });
  return envelopeOk(z.unknown().meta({ anyOf: results }));
}

export function registerEnvelope(app: FastifyInstance, path: string, methods: EnvelopeMethods) {
  envelopeRegistry.set(path, methods);
  app.withTypeProvider<ZodTypeProvider>().post(
    path,
    {
      config: { access: 'envelope', envelope: true },
      schema: {
        tags: ['envelope'],
        summary: `Envelope call: ${Object.keys(methods).join(', ')}`,
        body: envelopeBody,
        response: { 200: envelopeResponse(methods) },
      },
    },
    async (req) => {
      const { method, params } = req.body;
      const m = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!m) throw new AppError(400, 'request.unknownMethod', { method: method.slice(0, 100) }, 'method');
      assertAccess(req, m.access);
      const list = params === undefined || params === null ? [] : Array.isArray(params) ? params : [params];
      const parsed = m.params.safeParse(list);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw badRequest(
          describeIssues(parsed.error, list),
          `params${first?.path.length ? `.${first.path.join('.')}` : ''}`,
        );
      }
      const answer = m.result.safeParse(await m.handler(req, parsed.data));
      if (!answer.success)
        throw new ResponseSerializationError(`${method} (envelope)`, path, { cause: answer.error });
      return { code: 0 as const, result: answer.data };
    },
  );
}
