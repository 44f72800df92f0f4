import { formatMessage, type Locale, type MessageKey } from '@crdp/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

interface ErrorBody {
  status: number;
  message: string;
  errorCode: string;
  field?: string | undefined;
}

/** Sends an error in the shape of the route: envelope `{ code: 1, error }` or REST `{ code, message }`. */
export function sendError(req: FastifyRequest, reply: FastifyReply, e: ErrorBody) {
  const requestId = String(req.id);
  const envelope = req.routeOptions.config?.envelope === true;
  reply.code(e.status);
  if (envelope) {
    return reply.send({
      code: 1,
      result: null,
      error: { message: e.message, errorCode: e.errorCode, field: e.field },
      requestId,
    });
  }
  return reply.send({
    code: e.status,
    data: null,
    message: e.message,
    errorCode: e.errorCode,
    field: e.field,
    requestId,
  });
}

const t = (req: FastifyRequest, key: MessageKey, values?: Record<string, string | number>) =>
  formatMessage(key, (req.locale ?? 'zh-CN') as Locale, values);

/** The one error handler: typed errors become their status, bad input a 400 naming the field, the rest a 500 that hides internals. */
export function errorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.status >= 500) req.log.error({ err: error }, 'application error');
    return sendError(req, reply, {
      status: error.status,
      message: t(req, error.key, error.values),
      errorCode: error.key,
      field: error.field,
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = [error.validationContext, ...(first?.instancePath ?? '').split('/').filter(Boolean)].join(
      '.',
    );
    const detail = error.validation
      .slice(0, 5)
      .map((v) => {
        const p = [error.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.');
        return `${p}: ${v.message}`;
      })
      .join('; ');
    return sendError(req, reply, {
      status: 400,
      message: t(req, 'request.invalid', { detail }),
      errorCode: 'request.invalid',
      field: where,
    });
  }
  if (error.validation) {
    return sendError(req, reply, {
      status: 400,
      message: t(req, 'request.invalid', { detail: error.message }),
      errorCode: 'request.invalid',
    });
  }
  const code = error.code ?? '';
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return sendError(req, reply, {
      status: 415,
      message: t(req, 'request.mediaType', { type: String(req.headers['content-type'] ?? '') }),
      errorCode: 'request.mediaType',
    });
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return sendError(req, reply, {
      status: 413,
      message: t(req, 'request.tooLarge'),
      errorCode: 'request.tooLarge',
    });
  }
  if (
    code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error instanceof SyntaxError
  ) {
    return sendError(req, reply, {
      status: 400,
      message: t(req, 'request.malformedJson'),
      errorCode: 'request.malformedJson',
    });
  }
  if (error.statusCode === 429) {
    return sendError(req, reply, { status: 429, message: error.message, errorCode: 'request.rateLimited' });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return sendError(req, reply, {
      status: error.statusCode,
      message: t(req, 'request.invalid', { detail: error.message }),
      errorCode: code || 'request.invalid',
    });
  }
  req.log.error({ err: error }, 'unhandled error');
  return sendError(req, reply, {
    status: 500,
    message: t(req, 'server.error', { requestId: String(req.id) }),
    errorCode: 'server.error',
  });
}
