import { restOk } from '@crdp/core';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/*
 * What route handlers answer, written once: the REST envelope, the answer of a delete, the
 * "another app's id is a 404 before its body is read" check and file downloads.
 */

/** The REST envelope of a successful answer. */
export const ok = <T>(data: T) => ({ code: 200 as const, data, message: 'ok' });

/** The response schema of a delete whose `data` is null. */
export const deletedResponse = { 200: restOk(z.null()) };

/** The answer of a delete: `data` is null once the service has done its work. */
export async function deleted(done: Promise<unknown>): Promise<null> {
  await done;
  return null;
}

/**
 * A preValidation hook that loads the row the path names first, so an id of another app (or
 * none) answers 404 before the body is validated. A path that does not parse is left to the
 * schema's own 400.
 */
export const loadFirst =
  <P extends z.ZodType>(params: P, load: (req: FastifyRequest, p: z.infer<P>) => Promise<unknown>) =>
  async (req: FastifyRequest) => {
    const p = params.safeParse(req.params);
    if (p.success) await load(req, p.data);
  };

/**
 * The declaration of a route whose path names one object of the caller's app: the ids the
 * authorization matrix asks for from another app, the path schema and its `loadFirst` check.
 * `load` sees a path that parsed, for a request with a session.
 */
export const ownedPath = <P extends z.ZodType>(
  params: P,
  ownedIds: NonNullable<FastifyContextConfig['ownedIds']>,
  load: (appId: number, p: z.infer<P>) => Promise<unknown>,
) => ({
  ownedIds,
  params,
  preValidation: loadFirst(params, async (req, p) => {
    if (req.auth) await load(req.auth.appId, p);
  }),
});

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * Send a file to save: its type and its name (any characters, RFC 5987 encoded). Caching is
 * the no-store plugin's (every /api/ answer is `no-store`).
 */
export function sendAttachment(reply: FastifyReply, file: { type: string; name: string; body: unknown }) {
  return reply
    .header('content-type', file.type)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .send(file.body);
}
