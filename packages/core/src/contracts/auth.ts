import { z } from 'zod';
import { FREE_KEY_PARAM, HANDOFF_PARAM, LOGIN_PASSWORD_MAX, LOGIN_USER_NAME_MAX } from '../constants.js';
import { itemList, timestamp } from './common.js';

/**
 * Contracts of signing in and of the session (spec 000 §3 and §7): the envelope calls of
 * `api/merchants/merchantslogin` and `api/merchants/MerchantsLogin`, their REST forms under
 * /api/v0.1 (`login`, `user`, `current_user`, `user_permission`, `getekuser`), the sign-in
 * hand-off, the free-access links and the password-transport key. Server: apps/server/src/auth;
 * web: apps/web/src/api/auth.ts, app/session.ts, app/access.ts, app/boot.ts.
 *
 * Field names are the spec's (`User.UserName`, `SessionKey`, `AppList[].AppProducts[].ProductId`,
 * `ProductMenus`, `PermissionFuncs` …).
 */

/** The envelope answer of spec 000 §7: `{ code: 0, result }` (errors: `{ code: 1, error }`). */
export const envelopeOk = <T extends z.ZodType>(result: T) => z.object({ code: z.literal(0), result });

/** The REST answer of the login and user calls, which use `code` 0 as the spec says. */
export const restOkZero = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(0), data, message: z.string() });

/**
 * An id as the older product's clients send it: a positive integer, or its decimal string.
 * Never `true`, `[]` or `1.5`; at most the largest 32-bit integer.
 */
export const looseId = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,10}$/, 'must be a positive integer')
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(2_147_483_647));

/** Envelope params of a method that takes nothing (`[]`, or one ignored value). */
export const noParams = z.array(z.unknown()).max(1);

// ---------------------------------------------------------------------------------------------
// Signing in

// LOGIN_USER_NAME_MAX and LOGIN_PASSWORD_MAX live in constants.ts, like HANDOFF_PARAM and
// FREE_KEY_PARAM: the login page and the start-up read them without pulling zod and these schemas
// into the first download.

/** `Login` params[0] and the body of `POST /api/v0.1/login`. */
export const loginInput = z.object({
  UserName: z.string().trim().min(1, 'UserName is required').max(LOGIN_USER_NAME_MAX),
  Password: z.string().min(1, 'Password is required').max(LOGIN_PASSWORD_MAX),
  AppId: looseId.optional(),
});
export type LoginInput = z.input<typeof loginInput>;

/** An app of the user (spec 000 §3 AppList entry) with the products it holds. */
export const appSummary = z.object({
  AppId: z.number().int(),
  AppShortName: z.string(),
  AppName: z.string(),
  AppProducts: z.array(z.object({ ProductId: z.number().int() })),
});
export type AppSummary = z.infer<typeof appSummary>;

/** The login result of spec 000 §3: `User`, `AppList`, `LoginAppId`. */
export const loginResult = z.object({
  User: z.object({
    UserName: z.string(),
    UserId: z.number().int(),
    SessionKey: z.string(),
    /** The sign-in before this one; null on a first sign-in. */
    LastTime: z.string().nullable(),
    NickName: z.string(),
    HeadImage: z.string(),
  }),
  AppList: z.array(appSummary),
  LoginAppId: z.number().int(),
});
export type LoginResult = z.infer<typeof loginResult>;

/** User info display of spec 000 §3 (`GET /api/v0.1/user`). */
export const userInfo = z.object({
  UserId: z.number().int(),
  UserName: z.string(),
  NickName: z.string(),
  HeadImage: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** The signed-in user and the current app (`GetCurrentUser`, `GET /api/v0.1/current_user`). */
export const currentUser = userInfo.extend({
  AppId: z.number().int(),
  AppName: z.string(),
  AppShortName: z.string(),
  /** The user's last sign-in (this session's, once signed in); null if never. */
  LastTime: z.string().nullable(),
  AppList: z.array(appSummary),
});
export type CurrentUser = z.infer<typeof currentUser>;

/** `GET /api/v0.1/user_permission`: the user's menus and functions in the current app. */
export const userPermission = z.object({
  RouterNames: z.array(z.string()),
  ApiIds: z.array(z.string()),
  AppId: z.number().int(),
});
export type UserPermission = z.infer<typeof userPermission>;

/** `SetCurrentApp` params: the app to switch to. */
export const setCurrentAppParams = z.tuple([looseId]);
/** `SetCurrentApp` result: the app the session is in now. */
export const currentAppSwitched = z.object({
  AppId: z.number().int(),
  AppShortName: z.string(),
  AppName: z.string(),
});
export type CurrentAppSwitched = z.infer<typeof currentAppSwitched>;

/** `ChangePwd` params[0]: both passwords RSA-OAEP encrypted (base64) with the transport key. */
export const changePasswordInput = z.object({
  oldPwd: z.string().max(2000).default(''),
  newPwd: z.string().max(2000).default(''),
});
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

/** The RSA key the browser encrypts passwords with (`GET /api/v0.1/auth/public_key`). */
export const passwordPublicKey = z.object({
  jwk: z.object({
    kty: z.literal('RSA'),
    n: z.string(),
    e: z.string(),
    alg: z.literal('RSA-OAEP-256'),
    use: z.literal('enc'),
  }),
  /** The modulus in hex (the spec's "built-in public modulus"). */
  modulus: z.string(),
  exponent: z.number().int(),
});
export type PasswordPublicKey = z.infer<typeof passwordPublicKey>;

/** Product menus result of spec 000 §3 (`GetProductMenusAndPermissions`). */
export const productMenusResult = z.object({
  PermissionFuncs: z.array(
    z.object({ FuncId: z.number().int(), MenuId: z.number().int(), ApiId: z.string() }),
  ),
  /** Function ids the user holds. */
  Permissions: z.array(z.number().int()),
  ProductMenus: z.array(
    z.object({ MenuId: z.number().int(), RouterName: z.string(), ParentId: z.number().int().nullable() }),
  ),
});
export type ProductMenusResult = z.infer<typeof productMenusResult>;

/** `GetProductMenusAndPermissions` params: the product (22), or nothing for 22. */
export const productMenusParams = z.tuple([looseId]).or(z.tuple([]));

// ---------------------------------------------------------------------------------------------
// Sign-in hand-off (spec 000 §2: a key in the address signs in and lands on the workbench)
//
// The value of `?SessionKey=` is a short-lived, single-use hand-off code, never a session key. A
// signed-in session asks for a code for itself; the page that receives it may peek at whose code
// it is (without using it) and exchanges it by a POST for a new session of the same user and app.

// HANDOFF_PARAM (the address parameter that carries a hand-off code) is in constants.ts.
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

/** Query of `GET /api/v0.1/getekuser` (spec 000 §7): the hand-off code in `SessionKey`. */
export const getekuserQuery = z.object({ SessionKey: z.string().min(1).max(200) });

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

// ---------------------------------------------------------------------------------------------
// Free-access links (spec 000 §2: the CRF-only set and the terminology view open without login)

// FREE_KEY_PARAM (`#key=…`) is in constants.ts.

export function freeAccessPath(scopeKind: 'crf' | 'term', objectId: string | null, key: string): string {
  const fragment = `#${FREE_KEY_PARAM}=${encodeURIComponent(key)}`;
  return scopeKind === 'crf'
    ? `/crf?id=${encodeURIComponent(objectId ?? '')}${fragment}`
    : `/lg/term/view${fragment}`;
}

export const FREE_ACCESS_SCOPES = ['crf', 'term'] as const;
export const freeAccessScopeKind = z.enum(FREE_ACCESS_SCOPES);
export type FreeAccessScopeKind = z.infer<typeof freeAccessScopeKind>;
/** Longest validity of a free-access link: 90 days. */
export const FREE_ACCESS_MAX_HOURS = 24 * 90;

/** Body of `POST /api/v0.1/free_access` (a CRF link needs the CRF's id in `objectId`). */
export const freeAccessCreateBody = z.object({
  scopeKind: freeAccessScopeKind,
  objectId: z.string().trim().min(1).max(100).optional(),
  hours: z.number().int().min(1).max(FREE_ACCESS_MAX_HOURS).default(72),
  label: z.string().trim().max(200).default(''),
});
export type FreeAccessCreateBody = z.input<typeof freeAccessCreateBody>;

/** A new link: its key is shown this once, inside `path`'s fragment. */
export const freeAccessCreated = z.object({
  id: z.number().int(),
  key: z.string(),
  path: z.string(),
  expiresAt: timestamp,
});
export type FreeAccessCreated = z.infer<typeof freeAccessCreated>;

/** A link as listed (the key is never shown again). */
export const freeAccessLink = z.object({
  id: z.number().int(),
  scopeKind: z.string(),
  objectId: z.string().nullable(),
  label: z.string(),
  createdAt: timestamp,
  expiresAt: timestamp,
  revokedAt: timestamp.nullable(),
});
export type FreeAccessLink = z.infer<typeof freeAccessLink>;
export const freeAccessList = itemList(freeAccessLink);
export type FreeAccessList = z.infer<typeof freeAccessList>;

/** Body of `POST /api/v0.1/free_access/session`: the key from the link's fragment. */
export const freeAccessSessionBody = z.object({ key: z.string().min(10).max(200) });

/** What a free-access session opens: one CRF object, or the terminology view. */
export const freeAccessScope = z.object({
  kind: freeAccessScopeKind,
  objectId: z.string().nullable(),
  keyId: z.number().int().optional(),
});
export type FreeAccessScope = z.infer<typeof freeAccessScope>;

/** A session limited to the link's scope. */
export const freeAccessSession = z.object({
  SessionKey: z.string(),
  scope: freeAccessScope,
  AppId: z.number().int(),
});
export type FreeAccessSession = z.infer<typeof freeAccessSession>;
