import type { FastifyRequest } from 'fastify';
import { AppError, invalidField, notFound } from '../http/errors.js';

/**
 * Who is acting on CRF data: a signed-in user, or a free-access link that opens exactly one
 * CRF object (spec 000 section 2). A link sees only the form it names and the records made
 * through the same link; anything else answers 404, so a link cannot probe other ids.
 */
export interface CrfActor {
  appId: number;
  userId: number | null;
  userName: string;
  /** Set for a free-access link: the form it opens and the key it was made from. */
  free: { formId: string; keyId: number | null } | null;
}

export function crfActor(req: FastifyRequest): CrfActor {
  const a = req.auth;
  if (!a) throw new AppError(401, 'auth.required');
  if (a.kind === 'free') {
    if (a.scope?.kind !== 'crf') throw new AppError(403, 'auth.scope');
    return {
      appId: a.appId,
      userId: null,
      userName: `free:${a.scope.keyId ?? ''}`,
      free: { formId: a.scope.objectId ?? '', keyId: a.scope.keyId ?? null },
    };
  }
  return { appId: a.appId, userId: a.userId, userName: a.userName, free: null };
}

/** A free link may only reach the form it names. */
export function assertFormInScope(actor: CrfActor, formId: number) {
  if (actor.free && actor.free.formId !== String(formId)) throw notFound('crf_form');
}

/** A free link may only reach records of its form that were made through the same link. */
export function assertRecordInScope(actor: CrfActor, rec: { formId: number; freeKeyId: number | null }) {
  if (!actor.free) return;
  assertFormInScope(actor, rec.formId);
  if (rec.freeKeyId === null || rec.freeKeyId !== actor.free.keyId) throw notFound('crf_record');
}

/** Bad input: 400 naming the field, worded in Chinese and English; nothing changed. */
export const invalid = invalidField;
