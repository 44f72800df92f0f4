import {
  changePasswordInput,
  currentAppSwitched,
  currentUser as currentUserContract,
  getekuserQuery,
  handoffIdentity,
  loginInput,
  loginResult,
  looseId,
  noParams,
  PRODUCT_ID,
  passwordPublicKey,
  productMenusParams,
  productMenusResult,
  restOk,
  restOkZero,
  setCurrentAppParams,
  userInfo,
  userPermission,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defineMethod, registerEnvelope } from '../envelope/envelope.js';
import { signedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { handoffInvalid, handoffRateLimit, peekHandoff } from './handoff.js';
import { dummyHash } from './passwords.js';
import { loadPasswordKey, type PasswordKey } from './rsa.js';
import {
  changePassword,
  currentUser,
  login,
  logout,
  menuCatalogue,
  productMenusAndPermissions,
  productMenusTag,
  setCurrentApp,
} from './service.js';

/** An id in JSON: a positive integer, or its decimal string (older clients send both). Never true, [] or 1.5. */
export const idValue = looseId;
const loginParams = z.tuple([loginInput]);
const productMenusQuery = z.object({ product_id: looseId.optional() });

/** Whether an If-None-Match header names the tag (weak or strong, in a list, or `*`). */
export function matchesTag(header: string | string[] | undefined, tag: string) {
  const values = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  return values.some((v) => {
    const t = v.trim();
    return t === '*' || t.replace(/^W\//, '') === tag;
  });
}

/**
 * The signed-in session of a request; routes declared `session` only run with one. Prefer
 * `signedIn(req.ctx)` (http/context.ts), which services take.
 */
export function loginSession(req: FastifyRequest) {
  const s = signedIn(req.ctx);
  return { ...s.auth, userId: s.userId };
}

export async function authRoutes(app: FastifyInstance) {
  // Made or read at start, so no request ever writes it.
  const key: PasswordKey = await loadPasswordKey(app.db);
  // The menu catalogue's fingerprint for the menus' ETag, read once: the seed writes the catalogue
  // before the server listens and nothing changes it while it runs.
  let catalogue: Promise<string> | null = null;
  // The dummy hash an unknown name is checked against, made now so the first such sign-in is not
  // slower than a real one.
  await dummyHash();
  const passwordKey = async () => key;
  /** How a sign-in goes: session lifetime, address limit (the browser comes with the context). */
  const loginOptions = {
    ttlMs: app.config.sessionTtlMs,
    perMinuteFromAddress: app.config.loginRateLimit,
  };

  const merchantsLogin = {
    Login: defineMethod({
      access: 'public',
      summary: 'Sign in with user name and password',
      params: loginParams,
      result: loginResult,
      handler: (req, [input]: z.infer<typeof loginParams>) => login(req.ctx, input, loginOptions),
    }),
    GetCurrentUser: defineMethod({
      access: 'session',
      summary: 'The signed-in user and the current app',
      params: noParams,
      result: currentUserContract,
      handler: async (req) => {
        const s = signedIn(req.ctx);
        return currentUser(app.db, s.userId, s.appId);
      },
    }),
    ChangePwd: defineMethod({
      access: 'session',
      summary: 'Change the password; oldPwd and newPwd are RSA-OAEP encrypted (base64)',
      params: z.tuple([changePasswordInput]),
      result: z.literal(true),
      handler: async (req, [body]) => {
        const s = signedIn(req.ctx);
        if (!body.oldPwd) throw new AppError(400, 'password.oldRequired', {}, 'oldPwd');
        if (!body.newPwd) throw new AppError(400, 'password.newRequired', {}, 'newPwd');
        const k = await passwordKey();
        const oldPwd = k.decrypt(body.oldPwd);
        const newPwd = k.decrypt(body.newPwd);
        if (oldPwd === null || newPwd === null)
          throw new AppError(400, 'password.decrypt', {}, oldPwd === null ? 'oldPwd' : 'newPwd');
        await changePassword(s, oldPwd, newPwd);
        return true as const;
      },
    }),
    Logout: defineMethod({
      access: 'session',
      summary: 'End the current session',
      params: noParams,
      result: z.literal(true),
      handler: async (req) => {
        await logout(signedIn(req.ctx));
        return true as const;
      },
    }),
    SetCurrentApp: defineMethod({
      access: 'session',
      summary: 'Switch the session to another app of the user',
      params: setCurrentAppParams,
      result: currentAppSwitched,
      handler: async (req, [appId]) => setCurrentApp(signedIn(req.ctx), appId),
    }),
    GetProductMenusAndPermissions: defineMethod({
      access: 'session',
      summary: 'Menus and functions of the user in the current app for a product (22)',
      params: productMenusParams,
      result: productMenusResult,
      handler: async (req, params) => {
        const s = signedIn(req.ctx);
        return productMenusAndPermissions(app.db, s.userId, s.appId, params[0] ?? PRODUCT_ID);
      },
    }),
  };
  registerEnvelope(app, '/api/merchants/merchantslogin', merchantsLogin);
  registerEnvelope(app, '/api/merchants/MerchantsLogin', merchantsLogin);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const ok0 = <T>(data: T) => ({ code: 0 as const, data, message: 'ok' });

  r.post(
    '/api/v0.1/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (REST form of MerchantsLogin.Login)',
        body: loginInput,
        response: { 200: restOkZero(loginResult) },
      },
    },
    async (req) => ok0(await login(req.ctx, req.body, loginOptions)),
  );
  r.get(
    '/api/v0.1/auth/public_key',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'RSA public key for password transport',
        response: { 200: restOk(passwordPublicKey) },
      },
    },
    async () => {
      const k = await passwordKey();
      return {
        code: 200 as const,
        data: { jwk: k.jwk, modulus: k.modulus, exponent: k.exponent },
        message: 'ok',
      };
    },
  );
  r.get(
    '/api/v0.1/user',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: restOkZero(userInfo) } },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const u = await currentUser(app.db, s.userId, s.appId);
      return ok0({ UserId: u.UserId, UserName: u.UserName, NickName: u.NickName, HeadImage: u.HeadImage });
    },
  );
  r.get(
    '/api/v0.1/current_user',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and current app',
        response: { 200: restOkZero(currentUserContract) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      return ok0(await currentUser(app.db, s.userId, s.appId));
    },
  );
  r.get(
    '/api/v0.1/user_permission',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Route names and function ApiIds of the user',
        response: { 200: restOkZero(userPermission) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      return ok0({
        RouterNames: [...s.auth.routerNames].sort(),
        ApiIds: [...s.apiIds].sort(),
        AppId: s.appId,
      });
    },
  );
  r.get(
    '/api/v0.1/product_menus',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'REST form of MerchantsLogin.GetProductMenusAndPermissions, with an ETag of the ACL version: a request whose If-None-Match holds the current tag gets 304 and no body',
        querystring: productMenusQuery,
        response: {
          200: restOkZero(productMenusResult),
          304: z.null().describe('Not modified: the kept answer with this ETag is current; no body'),
        },
      },
    },
    async (req, reply) => {
      const s = signedIn(req.ctx);
      const productId = req.query.product_id ?? PRODUCT_ID;
      catalogue ??= menuCatalogue(app.db).catch((e: unknown) => {
        catalogue = null;
        throw e;
      });
      const tag = productMenusTag(await catalogue, s.auth, s.userId, s.appId, productId);
      // The HTTP cache keeps no /api/ answer (no-store plugin): the web app keeps the last answer
      // itself and asks again with If-None-Match, so it never uses one without the server's word.
      reply.header('ETag', tag);
      // A 304 carries no body at all (the schema's null only documents it).
      if (matchesTag(req.headers['if-none-match'], tag)) return reply.code(304).send(undefined as never);
      return ok0(await productMenusAndPermissions(app.db, s.userId, s.appId, productId));
    },
  );
  r.get(
    '/api/v0.1/getekuser',
    {
      config: { access: 'public', rateLimit: handoffRateLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Whose sign-in hand-off code the address holds (`SessionKey`), without using it; a session key is refused',
        querystring: getekuserQuery,
        response: { 200: restOkZero(handoffIdentity) },
      },
    },
    async (req) => {
      // The address carries a one-minute, single-use hand-off code, never a session key (issue 15).
      const who = await peekHandoff(app.db, req.query.SessionKey);
      if (!who) throw handoffInvalid('SessionKey');
      return ok0(who);
    },
  );
}
