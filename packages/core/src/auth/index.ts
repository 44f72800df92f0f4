import { z } from 'zod';

/**
 * Contracts of the sign-in hand-off and the free-access links (server: auth/handoff.ts and
 * auth/free-access.ts; web: app/boot.ts). One place, so neither side drifts.
 *
 * Hand-off (spec 000 §2: a key in the address signs in and lands on the workbench): the value of
 * `?SessionKey=` is a short-lived, single-use hand-off code, never a session key. A signed-in
 * session asks for a code for itself; the page that receives it may peek at whose code it is
 * (without using it) and exchanges it by a POST for a new session of the same user and app.
 */

/** The address parameter that carries a hand-off code (its name is the spec's). */
export const HANDOFF_PARAM = 'SessionKey';
/** A hand-off code is valid this long after it was made, and only once. */
export const HANDOFF_TTL_MS = 60_000;
/** Hand-off peeks and exchanges per client address per minute. */
export const HANDOFF_RATE_PER_MINUTE = 30;

/** A code as it travels: 43 base64url characters; the schema is loose so every wrong code gets the same answer. */
export const handoffCode = z.string().min(1).max(200);

/** Body of `POST /api/v0.1/session/handoff`: nothing; the code is for the calling session itself. */
export const handoffCreateBody = z.object({}).strict();
export const handoffCreated = z.object({
  code: z.string(),
  /** Site-relative address that signs in with the code: `/?SessionKey=<code>`. */
  path: z.string(),
  expiresAt: z.string(),
});
export type HandoffCreated = z.infer<typeof handoffCreated>;

/** Body of the peek and exchange calls. */
export const handoffCodeBody = z.object({ code: handoffCode });

/** Whose code it is: enough for the page to say who would be signed in, nothing more. */
export const handoffIdentity = z.object({
  UserId: z.number().int(),
  UserName: z.string(),
  NickName: z.string(),
  AppId: z.number().int(),
  AppName: z.string(),
  AppShortName: z.string(),
});
export type HandoffIdentity = z.infer<typeof handoffIdentity>;

/** The exchange's answer: a new session key of that user and app. */
export const handoffExchanged = handoffIdentity.extend({ SessionKey: z.string() });
export type HandoffExchanged = z.infer<typeof handoffExchanged>;

/** The address that hands a session over with a code. */
export function handoffPath(code: string): string {
  return `/?${HANDOFF_PARAM}=${encodeURIComponent(code)}`;
}

/**
 * Free-access links carry their key in the fragment (`#key=…`), which the browser never sends to
 * a server or proxy, so the key stays out of every request line and log.
 */
export const FREE_KEY_PARAM = 'key';

export function freeAccessPath(scopeKind: 'crf' | 'term', objectId: string | null, key: string): string {
  const fragment = `#${FREE_KEY_PARAM}=${encodeURIComponent(key)}`;
  return scopeKind === 'crf'
    ? `/crf?id=${encodeURIComponent(objectId ?? '')}${fragment}`
    : `/lg/term/view${fragment}`;
}
