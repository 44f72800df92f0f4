import { PRODUCT_ID } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { defineMethod, registerEnvelope } from '../envelope/envelope.js';
import { AppError } from '../http/errors.js';
import { handoffInvalid, handoffRateLimit, peekHandoff } from './handoff.js';
import { dummyHash } from './passwords.js';
import { loadPasswordKey, type PasswordKey } from './rsa.js';
import { appsOfUser, changePassword, currentUser, login, productMenusAndPermissions } from './service.js';
import { endSession, switchSessionApp } from './sessions.js';

const userName = z.string().trim().min(1, 'UserName is required').max(100);
const password = z.string().min(1, 'Password is required').max(200);
/** An id in JSON: a positive integer, or its decimal string (older clients send both). Never true, [] or 1.5. */
export const idValue = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,10}$/, 'must be a positive integer')
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(2_147_483_647));
const appIdSchema = idValue;
const loginInput = z.object({ UserName: userName, Password: password, AppId: appIdSchema.optional() });
const loginParams = z.tuple([loginInput]);

/** The signed-in session of a request; routes declared `session` only run with one. */
export function loginSession(req: FastifyRequest) {
  const a = req.auth;
  if (a?.kind !== 'login' || a.userId === null) throw new AppError(401, 'auth.required');
  return { ...a, userId: a.userId };
}

export async function authRoutes(app: FastifyInstance) {
  // Made or read at start, so no request ever writes it.
  const key: PasswordKey = await loadPasswordKey(app.db);
  // The dummy hash an unknown name is checked against, made now so the first such sign-in is not
  // slower than a real one.
  await dummyHash();
  const passwordKey = async () => key;
  const ttl = () => app.config.sessionTtlMs;

  const merchantsLogin = {
    Login: defineMethod({
      access: 'public',
      summary: 'Sign in with user name and password',
      params: loginParams,
      handler: (req, [input]: z.infer<typeof loginParams>) =>
        login(app.db, req, input, ttl(), app.config.loginRateLimit),
    }),
    GetCurrentUser: defineMethod({
      access: 'session',
      summary: 'The signed-in user and the current app',
      params: z.array(z.unknown()).max(1),
      handler: async (req) => {
        const s = loginSession(req);
        return currentUser(app.db, s.userId, s.appId);
      },
    }),
    ChangePwd: defineMethod({
      access: 'session',
      summary: 'Change the password; oldPwd and newPwd are RSA-OAEP encrypted (base64)',
      params: z.tuple([
        z.object({ oldPwd: z.string().max(2000).default(''), newPwd: z.string().max(2000).default('') }),
      ]),
      handler: async (req, [body]: [{ oldPwd: string; newPwd: string }]) => {
        const s = loginSession(req);
        if (!body.oldPwd) throw new AppError(400, 'password.oldRequired', {}, 'oldPwd');
        if (!body.newPwd) throw new AppError(400, 'password.newRequired', {}, 'newPwd');
        const k = await passwordKey();
        const oldPwd = k.decrypt(body.oldPwd);
        const newPwd = k.decrypt(body.newPwd);
        if (oldPwd === null || newPwd === null)
          throw new AppError(400, 'password.decrypt', {}, oldPwd === null ? 'oldPwd' : 'newPwd');
        await changePassword(app.db, req, s.userId, s.sessionId, oldPwd, newPwd);
        return true;
      },
    }),
    Logout: defineMethod({
      access: 'session',
      summary: 'End the current session',
      params: z.array(z.unknown()).max(1),
      handler: async (req) => {
        const s = loginSession(req);
        await endSession(app.db, s.sessionId);
        await audit(app.db, req, { action: 'logout', entity: 'user', entityId: s.userId });
        return true;
      },
    }),
    SetCurrentApp: defineMethod({
      access: 'session',
      summary: 'Switch the session to another app of the user',
      params: z.tuple([appIdSchema]),
      handler: async (req, [appId]: [number]) => {
        const s = loginSession(req);
        const target = (await appsOfUser(app.db, s.userId)).find((a) => a.AppId === appId);
        if (!target) throw new AppError(403, 'auth.noApp', {}, 'params.0');
        if (!target.AppProducts.some((p) => p.ProductId === PRODUCT_ID))
          throw new AppError(403, 'auth.noProduct');
        await switchSessionApp(app.db, s.sessionId, appId);
        await audit(app.db, req, {
          action: 'app.switch',
          entity: 'session',
          entityId: s.sessionId,
          before: { AppId: s.appId },
          after: { AppId: appId },
          appId,
        });
        return { AppId: target.AppId, AppShortName: target.AppShortName, AppName: target.AppName };
      },
    }),
    GetProductMenusAndPermissions: defineMethod({
      access: 'session',
      summary: 'Menus and functions of the user in the current app for a product (22)',
      params: z.tuple([idValue]).or(z.tuple([])),
      handler: async (req, params: number[]) => {
        const s = loginSession(req);
        return productMenusAndPermissions(app.db, s.userId, s.appId, params[0] ?? PRODUCT_ID);
      },
    }),
  };
  registerEnvelope(app, '/api/merchants/merchantslogin', merchantsLogin);
  registerEnvelope(app, '/api/merchants/MerchantsLogin', merchantsLogin);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const ok0 = (data: unknown) => ({ code: 0, data, message: 'ok' });

  r.post(
    '/api/v0.1/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (REST form of MerchantsLogin.Login)',
        body: loginInput,
      },
    },
    async (req) => ok0(await login(app.db, req, req.body, ttl(), app.config.loginRateLimit)),
  );
  r.get(
    '/api/v0.1/auth/public_key',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'RSA public key for password transport' },
    },
    async () => {
      const k = await passwordKey();
      return { code: 200, data: { jwk: k.jwk, modulus: k.modulus, exponent: k.exponent }, message: 'ok' };
    },
  );
  r.get(
    '/api/v0.1/user',
    { config: { access: 'session' }, schema: { tags: ['auth'], summary: 'The signed-in user' } },
    async (req) => {
      const s = loginSession(req);
      const u = await currentUser(app.db, s.userId, s.appId);
      return ok0({ UserId: u.UserId, UserName: u.UserName, NickName: u.NickName, HeadImage: u.HeadImage });
    },
  );
  r.get(
    '/api/v0.1/current_user',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], summary: 'The signed-in user and current app' },
    },
    async (req) => {
      const s = loginSession(req);
      return ok0(await currentUser(app.db, s.userId, s.appId));
    },
  );
  r.get(
    '/api/v0.1/user_permission',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], summary: 'Route names and function ApiIds of the user' },
    },
    async (req) => {
      const s = loginSession(req);
      return ok0({ RouterNames: [...s.routerNames].sort(), ApiIds: [...s.apiIds].sort(), AppId: s.appId });
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
        querystring: z.object({ SessionKey: z.string().min(1).max(200) }),
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
