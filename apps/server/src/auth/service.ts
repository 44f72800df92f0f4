import {
  ALWAYS_ALLOWED_ROUTES,
  checkPasswordPolicy,
  LOGIN_LOCK_WINDOW_MS,
  LOGIN_MAX_FAILURES,
  PRODUCT_ID,
} from '@crdp/core';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { appMembers, appProducts, apps, functions, loginAttempts, menus, users } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';
import { dummyHash, hashPassword, verifyPassword } from './passwords.js';
import { createSession, endOtherSessions, loadPermissions } from './sessions.js';

export interface AppSummary {
  AppId: number;
  AppShortName: string;
  AppName: string;
  AppProducts: Array<{ ProductId: number }>;
}

/** The apps a user belongs to, with their products. */
export async function appsOfUser(db: Tx, userId: number): Promise<AppSummary[]> {
  const rows = await db
    .select({
      appId: apps.appId,
      short: apps.appShortName,
      name: apps.name,
      productId: appProducts.productId,
    })
    .from(appMembers)
    .innerJoin(apps, eq(apps.appId, appMembers.appId))
    .leftJoin(appProducts, eq(appProducts.appId, apps.appId))
    .where(eq(appMembers.userId, userId))
    .orderBy(asc(apps.appId));
  const byId = new Map<number, AppSummary>();
  for (const r of rows) {
    const a = byId.get(r.appId) ?? {
      AppId: r.appId,
      AppShortName: r.short,
      AppName: r.name,
      AppProducts: [],
    };
    if (r.productId !== null) a.AppProducts.push({ ProductId: r.productId });
    byId.set(r.appId, a);
  }
  return [...byId.values()];
}

const holdsProduct = (a: AppSummary) => a.AppProducts.some((p) => p.ProductId === PRODUCT_ID);

async function recentFailures(db: Tx, userName: string) {
  const since = new Date(Date.now() - LOGIN_LOCK_WINDOW_MS);
  const [lastOk] = await db
    .select({ at: sql<Date>`max(${loginAttempts.at})` })
    .from(loginAttempts)
    .where(and(sql`lower(${loginAttempts.userName}) = lower(${userName})`, eq(loginAttempts.success, true)));
  const from = lastOk?.at && new Date(lastOk.at) > since ? new Date(lastOk.at) : since;
  const rows = await db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(
      and(
        sql`lower(${loginAttempts.userName}) = lower(${userName})`,
        eq(loginAttempts.success, false),
        gt(loginAttempts.at, from),
      ),
    )
    .orderBy(asc(loginAttempts.at));
  return rows.map((r) => r.at);
}

export interface LoginInput {
  UserName: string;
  Password: string;
  AppId?: number | undefined;
}

/**
 * Signs a user in: throttles by user name, checks the password (argon2id), requires an app
 * holding product 22, creates a session in the chosen app. Failures and lockouts are audited.
 */
export async function login(
  db: Db,
  req: FastifyRequest,
  input: LoginInput,
  ttlMs: number,
  perMinuteFromAddress = 30,
) {
  const userName = input.UserName.trim();
  // Attempts per client address, counted in the database so every server process sees them.
  const [fromAddress] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, req.ip), gt(loginAttempts.at, new Date(Date.now() - 60_000))));
  if ((fromAddress?.n ?? 0) >= perMinuteFromAddress)
    throw new AppError(429, 'request.rateLimited', { seconds: 60 });
  const failures = await recentFailures(db, userName);
  if (failures.length >= LOGIN_MAX_FAILURES) {
    const unlockAt = failures[failures.length - LOGIN_MAX_FAILURES]!.getTime() + LOGIN_LOCK_WINDOW_MS;
    const minutes = Math.max(1, Math.ceil((unlockAt - Date.now()) / 60_000));
    await audit(db, req, {
      action: 'login.locked',
      entity: 'user',
      entityId: userName,
      outcome: 'denied',
      userName,
      appId: null,
      userId: null,
    });
    throw new AppError(429, 'auth.locked', { minutes });
  }
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`)
    .limit(1);
  let ok = false;
  if (user) ok = await verifyPassword(user.passwordHash, input.Password);
  // Unknown names cost the same time as known ones, so timing does not reveal which exist.
  else await verifyPassword(await dummyHash(), input.Password);
  if (!user || !ok) {
    await db.insert(loginAttempts).values({ userName, success: false, ip: req.ip });
    await audit(db, req, {
      action: 'login.failed',
      entity: 'user',
      entityId: userName,
      outcome: 'failure',
      userName,
      appId: null,
      userId: user?.userId ?? null,
    });
    if (failures.length + 1 >= LOGIN_MAX_FAILURES) {
      await audit(db, req, {
        action: 'login.lockout',
        entity: 'user',
        entityId: userName,
        outcome: 'denied',
        userName,
        appId: null,
        userId: user?.userId ?? null,
      });
    }
    throw new AppError(401, 'auth.badCredentials');
  }
  if (!user.enabled) {
    await audit(db, req, {
      action: 'login.disabled',
      entity: 'user',
      entityId: user.userId,
      outcome: 'denied',
      userName,
      appId: null,
      userId: user.userId,
    });
    throw new AppError(403, 'auth.disabled');
  }
  const appList = await appsOfUser(db, user.userId);
  const eligible = appList.filter(holdsProduct);
  if (eligible.length === 0) {
    await db.insert(loginAttempts).values({ userName, success: true, ip: req.ip });
    await audit(db, req, {
      action: 'login.noProduct',
      entity: 'user',
      entityId: user.userId,
      outcome: 'denied',
      userName,
      appId: null,
      userId: user.userId,
    });
    throw new AppError(403, 'auth.noProduct');
  }
  const chosen = input.AppId !== undefined ? eligible.find((a) => a.AppId === input.AppId) : eligible[0];
  if (!chosen) throw new AppError(403, 'auth.noApp', {}, 'AppId');
  const lastTime = user.lastLoginAt;
  const session = await db.transaction(async (tx) => {
    const s = await createSession(tx, {
      userId: user.userId,
      appId: chosen.AppId,
      kind: 'login',
      ttlMs,
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? ''),
    });
    await tx.update(users).set({ lastLoginAt: new Date() }).where(eq(users.userId, user.userId));
    await tx.insert(loginAttempts).values({ userName, success: true, ip: req.ip });
    await audit(tx, req, {
      action: 'login',
      entity: 'user',
      entityId: user.userId,
      userName: user.userName,
      appId: chosen.AppId,
      userId: user.userId,
    });
    return s;
  });
  return {
    User: {
      UserName: user.userName,
      UserId: user.userId,
      SessionKey: session.key,
      LastTime: lastTime ? lastTime.toISOString() : null,
      NickName: user.nickname || user.userName,
      HeadImage: user.headImage,
    },
    AppList: appList,
    LoginAppId: chosen.AppId,
  };
}

/** The signed-in user and their current app (GetCurrentUser, GET current_user). */
export async function currentUser(db: Tx, userId: number, appId: number) {
  const [user] = await db.select().from(users).where(eq(users.userId, userId));
  if (!user) throw new AppError(401, 'auth.required');
  const appList = await appsOfUser(db, userId);
  const app = appList.find((a) => a.AppId === appId);
  return {
    UserId: user.userId,
    UserName: user.userName,
    NickName: user.nickname || user.userName,
    HeadImage: user.headImage,
    AppId: appId,
    AppName: app?.AppName ?? '',
    AppShortName: app?.AppShortName ?? '',
    LastTime: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    AppList: appList,
  };
}

/** Menus and functions of the user's roles in the session's app (GetProductMenusAndPermissions). */
export async function productMenusAndPermissions(db: Tx, userId: number, appId: number, productId: number) {
  const perms = await loadPermissions(db, userId, appId);
  const names = [...new Set([...perms.routerNames, ...ALWAYS_ALLOWED_ROUTES])];
  const menuRows = await db
    .select({ MenuId: menus.menuId, RouterName: menus.routerName, ParentId: menus.parentId })
    .from(menus)
    .where(and(eq(menus.productId, productId), inArray(menus.routerName, names)))
    .orderBy(asc(menus.menuId));
  const funcRows =
    perms.apiIds.size === 0
      ? []
      : await db
          .select({ FuncId: functions.funcId, MenuId: functions.menuId, ApiId: functions.apiId })
          .from(functions)
          .where(inArray(functions.apiId, [...perms.apiIds]))
          .orderBy(asc(functions.funcId));
  return {
    PermissionFuncs: funcRows,
    Permissions: funcRows.map((f) => f.FuncId),
    ProductMenus: menuRows,
  };
}

/**
 * Changes a password. Both values arrive decrypted; the old one must match, the new one must
 * pass the policy of spec 000 section 5. Every other session of the user ends.
 */
export async function changePassword(
  db: Db,
  req: FastifyRequest,
  userId: number,
  sessionId: number,
  oldPwd: string,
  newPwd: string,
) {
  const [user] = await db.select().from(users).where(eq(users.userId, userId));
  if (!user) throw new AppError(401, 'auth.required');
  if (!(await verifyPassword(user.passwordHash, oldPwd))) {
    await audit(db, req, {
      action: 'password.change',
      entity: 'user',
      entityId: userId,
      outcome: 'failure',
      reason: 'old password wrong',
    });
    throw new AppError(400, 'password.oldWrong', {}, 'oldPwd');
  }
  const policy = checkPasswordPolicy(newPwd);
  if (!policy.ok) throw new AppError(400, policy.problem!, {}, 'newPwd');
  if (oldPwd === newPwd) throw new AppError(400, 'password.same', {}, 'newPwd');
  const passwordHash = await hashPassword(newPwd);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date() })
      .where(eq(users.userId, userId));
    await endOtherSessions(tx, userId, sessionId);
    await audit(tx, req, { action: 'password.change', entity: 'user', entityId: userId });
  });
}
