import { formatMessage, type Locale, type MessageKey, pickLocale } from '@crdp/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, valuesIn } from './errors.js';
import { validationText, valueAt } from './validation-messages.js';

interface ErrorBody {
  status: number;
  message: string;
  errorCode: string;
  field?: string | undefined;
  /** The message's plain values (seconds to wait…), so a screen can word the code in its own language. */
  values?: Record<string, string | number> | undefined;
}

/** The FHIR issue type (IssueType value set) of an HTTP status. */
function fhirIssueCode(status: number): string {
  if (status === 400) return 'invalid';
  if (status === 401) return 'login';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too-long';
  if (status === 429 || status === 503) return 'throttled';
  return status >= 500 ? 'exception' : 'processing';
}

/** Sends an error in the shape of the route: envelope `{ code: 1, error }` or REST `{ code, message }`. */
export function sendError(req: FastifyRequest, reply: FastifyReply, e: ErrorBody) {
  const requestId = String(req.id);
  const envelope = req.routeOptions.config?.envelope === true;
  reply.code(e.status);
  if (req.routeOptions.config?.fhir === true) {
    reply.type('application/fhir+json');
    return reply.send({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: fhirIssueCode(e.status),
          diagnostics: e.message,
          ...(e.field ? { expression: [e.field] } : {}),
          details: { coding: [{ system: 'urn:crdp:error', code: e.errorCode }] },
        },
      ],
    });
  }
  if (envelope) {
    return reply.send({
      code: 1,
      result: null,
      error: { message: e.message, errorCode: e.errorCode, field: e.field, values: e.values },
      requestId,
    });
  }
  return reply.send({
    code: e.status,
    data: null,
    message: e.message,
    errorCode: e.errorCode,
    field: e.field,
    values: e.values,
    requestId,
  });
}

/** The request's language; errors raised before the hooks ran (router errors) read the header themselves. */
const localeOf = (req: FastifyRequest): Locale =>
  (req.locale as Locale | undefined) ?? pickLocale(req.headers['accept-language']);

const t = (req: FastifyRequest, key: MessageKey, values?: Record<string, string | number>) =>
  formatMessage(key, localeOf(req), values);

/** Fastify's own request errors, by code, as catalogue messages (their status codes kept). */
const FASTIFY_CODES: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.contentLength',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'request.missingContentType',
  FST_ERR_BAD_URL: 'request.badUrl',
  FST_ERR_MAX_PARAM_LENGTH: 'request.paramTooLong',
};

/** Chinese of ajv's common problems (schemas not written in zod); English keeps ajv's own text. */
function ajvText(
  v: { keyword: string; message?: string | undefined; params: Record<string, unknown> },
  locale: Locale,
): string {
  const message = v.message ?? '';
  if (locale !== 'zh-CN') return message;
  const p = v.params ?? {};
  switch (v.keyword) {
    case 'required':
      return `缺少必填字段 ${String(p.missingProperty ?? '')}`.trim();
    case 'type':
      return `类型应为 ${String(p.type ?? '')}`.trim();
    case 'additionalProperties':
      return `不认识的字段：${String(p.additionalProperty ?? '')}`;
    case 'enum':
      return `应为以下之一：${Array.isArray(p.allowedValues) ? p.allowedValues.join('、') : ''}`;
    case 'maxLength':
      return `最多 ${String(p.limit)} 个字符`;
    case 'minLength':
      return `至少 ${String(p.limit)} 个字符`;
    case 'maximum':
      return `不能大于 ${String(p.limit)}`;
    case 'minimum':
      return `不能小于 ${String(p.limit)}`;
    case 'format':
      return `格式应为 ${String(p.format ?? '')}`;
    case 'pattern':
      return '格式不正确';
    default:
      return validationText({ keyword: v.keyword, message, params: p }, locale, undefined);
  }
}

/** The values that read the same in every language (numbers, plain strings); none when there are none. */
function plainValues(values: AppError['values']): Record<string, string | number> | undefined {
  const out = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v !== 'object'));
  return Object.keys(out).length ? (out as Record<string, string | number>) : undefined;
}

/** The one error handler: typed errors become their status, bad input a 400 naming the field, the rest a 500 that hides internals. */
export function errorHandler(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    // A busy refusal (503) or a wait (429) says when to come back (Retry-After, seconds).
    if ((error.status === 503 || error.status === 429) && typeof error.values.seconds === 'number')
      reply.header('retry-after', String(error.values.seconds));
    else if (error.status >= 500) req.log.error({ err: error }, 'application error');
    return sendError(req, reply, {
      status: error.status,
      message: t(req, error.key, valuesIn(error.values, localeOf(req))),
      errorCode: error.key,
      field: error.field,
      values: plainValues(error.values),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = [error.validationContext, ...(first?.instancePath ?? '').split('/').filter(Boolean)].join(
      '.',
    );
    const locale = localeOf(req);
    const part = error.validationContext === 'querystring' ? 'query' : error.validationContext;
    const root = part ? (req as unknown as Record<string, unknown>)[part] : undefined;
    const detail = error.validation
      .slice(0, 5)
      .map((v) => {
        const path = v.instancePath.split('/').filter(Boolean);
        const p = [error.validationContext, ...path].join('.');
        const text = validationText(
          { keyword: v.keyword, message: v.message ?? '', params: v.params as Record<string, unknown> },
          locale,
          valueAt(root, path),
        );
        return `${p}: ${text}`;
      })
      .join(locale === 'zh-CN' ? '；' : '; ');
    return sendError(req, reply, {
      status: 400,
      message: t(req, 'request.invalid', { detail }),
      errorCode: 'request.invalid',
      field: where,
    });
  }
  if (error.validation) {
    // A schema not written in zod (ajv's problems): each problem by path, worded per language.
    const locale = localeOf(req);
    const problems = Array.isArray(error.validation) ? error.validation : [];
    const first = problems[0];
    const where = first
      ? [error.validationContext, ...(first.instancePath ?? '').split('/').filter(Boolean)].join('.')
      : undefined;
    const detail = problems.length
      ? problems
          .slice(0, 5)
          .map((v) => {
            const p = [error.validationContext, ...(v.instancePath ?? '').split('/').filter(Boolean)].join(
              '.',
            );
            return `${p}: ${ajvText(v, locale)}`;
          })
          .join(locale === 'zh-CN' ? '；' : '; ')
      : error.message;
    return sendError(req, reply, {
      status: 400,
      message: t(req, 'request.invalid', { detail }),
      errorCode: 'request.invalid',
      field: where,
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
  const path = req.url.split('?')[0] ?? '/';
  if (code === 'FST_ERR_NOT_FOUND' || error.statusCode === 404) {
    return sendError(req, reply, {
      status: 404,
      message: t(req, 'request.notFound', { path }),
      errorCode: 'request.notFound',
    });
  }
  if (error.statusCode === 405) {
    return sendError(req, reply, {
      status: 405,
      message: t(req, 'request.methodNotAllowed', { path, method: req.method }),
      errorCode: 'request.methodNotAllowed',
    });
  }
  const known = FASTIFY_CODES[code];
  if (known) {
    return sendError(req, reply, {
      status: error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400,
      message: t(req, known, { method: req.method, url: path }),
      errorCode: known,
    });
  }
  if (error.statusCode === 429) {
    // @fastify/rate-limit sets retry-after (seconds) before it throws its English message.
    const seconds = Number(reply.getHeader('retry-after'));
    return sendError(req, reply, {
      status: 429,
      message:
        Number.isFinite(seconds) && seconds > 0 ? t(req, 'request.rateLimited', { seconds }) : error.message,
      errorCode: 'request.rateLimited',
    });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Another plugin's refusal: its status kept, the words around its own text in the reader's language.
    return sendError(req, reply, {
      status: error.statusCode,
      message:
        error.statusCode === 400
          ? t(req, 'request.invalid', { detail: error.message })
          : t(req, 'request.rejected', { status: error.statusCode, detail: error.message }),
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
