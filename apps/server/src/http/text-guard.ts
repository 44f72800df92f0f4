import { findValueFault, textFaultMessage, type ValueFault } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest, bilingual } from './errors.js';

/** `body.items.0.name`, or `params[0].name` inside an envelope call (the envelope's own naming). */
function fieldName(part: 'body' | 'querystring' | 'params', fault: ValueFault, envelope: boolean): string {
  // A faulty key (the last element) is quoted with its escapes, so the path stays readable.
  const last = fault.path.length - 1;
  const show = (k: string | number, i: number) => (fault.inKey && i === last ? JSON.stringify(k) : String(k));
  if (envelope && part === 'body' && fault.path[0] === 'params') {
    // A single value is wrapped into the params array by the envelope.
    const inArray = fault.path.length > 1 && typeof fault.path[1] === 'number';
    const rest = fault.path
      .map((k, i) => (i === 0 ? '' : typeof k === 'number' ? `[${k}]` : `.${show(k, i)}`))
      .join('');
    return `params${inArray ? '' : '[0]'}${rest}`;
  }
  return [part, ...fault.path.map(show)].join('.');
}

/**
 * The backstop behind every route's own schema: before any validation or handler runs, the
 * parsed body (JSON or text, envelope params included), the query string and the path
 * parameters are walked, strings and object keys alike, and a NUL or other control character
 * (tab and line breaks allowed) or a lone surrogate is refused with a 400 naming the first bad
 * value's path and position. PostgreSQL refuses NUL in text and JSON, so such a value used to
 * reach the database and come back as a 500.
 */
export const textGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (req: FastifyRequest) => {
    const envelope = req.routeOptions.config?.envelope === true;
    for (const part of ['params', 'query', 'body'] as const) {
      const value = (req as unknown as Record<string, unknown>)[part];
      if (value === undefined || value === null || Buffer.isBuffer(value)) continue;
      const fault = findValueFault(value);
      if (!fault) continue;
      // Named like the schema errors of the one error handler: body, querystring, params.
      const field = fieldName(part === 'query' ? 'querystring' : part, fault, envelope);
      throw badRequest(
        bilingual(
          `${field}: ${fault.inKey ? '字段名' : ''}${textFaultMessage(fault, 'zh-CN')}`,
          `${field}: ${fault.inKey ? 'the field name ' : ''}${textFaultMessage(fault, 'en-US')}`,
        ),
        field,
      );
    }
  });
});
