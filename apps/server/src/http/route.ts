import { restOk } from '@crdp/core';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Access } from './access.js';
import { ok } from './reply.js';

/*
 * One way to declare a REST route of an area: who may call it, what it takes, what it answers and
 * the service call that answers. Every route answers the REST envelope `{ code, data, message }`
 * and declares the schema of `data`, so OpenAPI documents it, Fastify serialises with it and the
 * contract test finds it. Routes that send a file or answer in another shape keep Fastify's own
 * declaration.
 *
 *   const api = restRoutes(app, { tags: ['omop'] });
 *   api.get(`${P}/rules`, { access: R('query'), summary: 'Rules in effect', answer: omopRuleList },
 *     (req) => listRules(app.db, appActor(req.ctx)));
 */

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface RestRoute<P, Q, B, D extends Schema> {
  /** The function (or session) the server checks before anything else. */
  access: Access;
  summary: string;
  description?: string;
  /** Real ids of one app's objects the path addresses: the authorization matrix asks for them from another app. */
  ownedIds?: FastifyContextConfig['ownedIds'];
  freeScope?: FastifyContextConfig['freeScope'];
  /** Runs before the body is validated: an id of another app answers 404, whatever the body says. */
  preValidation?: (req: FastifyRequest) => Promise<void>;
  params?: P;
  query?: Q;
  body?: B;
  bodyLimit?: number;
  /** The schema of `data` in the answer. */
  answer: D;
}

type Req<P, Q, B> = FastifyRequest<{ Params: Out<P>; Querystring: Out<Q>; Body: Out<B> }>;
type Handler<P, Q, B, D extends Schema> = (
  req: Req<P, Q, B>,
  reply: FastifyReply,
) => Promise<z.input<D>> | z.input<D>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

export function restRoutes(app: FastifyInstance, defaults: { tags: string[] }) {
  const add =
    (method: Method) =>
    <
      P extends Schema | undefined,
      Q extends Schema | undefined,
      B extends Schema | undefined,
      D extends Schema,
    >(
      url: string,
      spec: RestRoute<P, Q, B, D>,
      handler: Handler<P, Q, B, D>,
    ) => {
      // Validation and serialisation are the app's zod compilers; the request's types come from
      // the spec above, so the handler is typed without Fastify's provider here.
      app.route({
        method,
        url,
        config: {
          access: spec.access,
          ...(spec.ownedIds ? { ownedIds: spec.ownedIds } : {}),
          ...(spec.freeScope ? { freeScope: spec.freeScope } : {}),
        },
        ...(spec.preValidation ? { preValidation: spec.preValidation } : {}),
        ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
        schema: {
          tags: defaults.tags,
          summary: spec.summary,
          ...(spec.description ? { description: spec.description } : {}),
          ...(spec.params ? { params: spec.params } : {}),
          ...(spec.query ? { querystring: spec.query } : {}),
          ...(spec.body ? { body: spec.body } : {}),
          response: { 200: restOk(spec.answer) },
        },
        handler: async (req, reply) => ok(await handler(req as unknown as Req<P, Q, B>, reply)),
      });
    };
  return {
    get: add('GET'),
    post: add('POST'),
    put: add('PUT'),
    patch: add('PATCH'),
    delete: add('DELETE'),
  };
}
