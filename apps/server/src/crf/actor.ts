import { type AppActor, appActor, type RequestContext } from '../http/context.js';
import { AppError, invalidField, notFound } from '../http/errors.js';

/**
 * Who is acting on CRF data: the request context of a signed-in user, or of a free-access link
 * that opens exactly one CRF object (spec 000 section 2). A link sees only the form it names and
 * the records made through the same link; anything else answers 404, so a link cannot probe
 * other ids. Services audit with it as their context.
 */
export interface CrfActor extends AppActor {
  /** Set for a free-access link: the form it opens and the key it was made from. */
  readonly free: { formId: string; keyId: number | null } | null;
}

/** What a read needs: the app, and the link's scope when a free-access link reads. */
export type CrfScope = Pick<CrfActor, 'appId' | 'free'>;

export function crfActor(ctx: RequestContext): CrfActor {
  const a = appActor(ctx);
  if (a.auth.kind === 'free') {
    const scope = a.auth.scope;
    if (scope?.kind !== 'crf') throw new AppError(403, 'auth.scope');
    return {
      ...a,
      userId: null,
      userName: `free:${scope.keyId ?? ''}`,
      free: { formId: scope.objectId ?? '', keyId: scope.keyId ?? null },
    };
  }
  return { ...a, free: null };
}

/** A free link may only reach the form it names. */
export function assertFormInScope(actor: CrfScope, formId: number) {
  if (actor.free && actor.free.formId !== String(formId)) throw notFound('crf_form');
}

/** A free link may only reach records of its form that were made through the same link. */
export function assertRecordInScope(actor: CrfScope, rec: { formId: number; freeKeyId: number | null }) {
  if (!actor.free) return;
  assertFormInScope(actor, rec.formId);
  if (rec.freeKeyId === null || rec.freeKeyId !== actor.free.keyId) throw notFound('crf_record');
}

/** Bad input: 400 naming the field, worded in Chinese and English; nothing changed. */
export const invalid = invalidField;
