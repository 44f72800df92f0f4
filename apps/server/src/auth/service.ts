import { createHash } from 'node:crypto';
import {
  ALWAYS_ALLOWED_ROUTES,
  type AppSummary,
  type CurrentAppSwitched,
  type CurrentUser,
  checkPasswordPolicy,
  type LoginResult,
  type MessageKey,
  PRODUCT_ID,
  type ProductMenusResult,
} from '@crdp/core';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { type AuditEntry, audit } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { appMembers, appProducts, apps, functions, loginAttempts, menus, users } from '../db/schema/index.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { dummyHash, hashPassword, verifyPassword } from './passwords.js';
import {
  createSession,
  endOtherSessions,
  endSession,
  loadPermissions,
  switchSessionApp,
} from './sessions.js';
import { clearGuesses, pruneGuesses, reserveGuess } from './throttle.js';

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

export interface LoginInput {
  UserName: string;
  Password: string;
  AppId?: number | undefined;
}

export interface LoginOptions {
  /** Lifetime of the new session. */
  ttlMs: number;
  /** Sign-in attempts per client address per minute. */
  perMinuteFromAddress?: number;
}

/**
 * Signs a user in: limits attempts per client address, counts the guess for (user name,
 * address) before checking the password (argon2id), requires an app holding product 22, creates
 * a session in the chosen app. An unknown name, a wrong password and a user of another app get
 * the same answer after the same work. Failures and waits are audited, never with the password;
 * a name that matches no account is not written anywhere (it may be a password typed in the
 * wrong field).
 */
export async function login(
  ctx: RequestContext,
  input: LoginInput,
  opts: LoginOptions,
): Promise<LoginResult> {
  const { db, ip } = ctx;
  const perMinuteFromAddress = opts.perMinuteFromAddress ?? 30;
  const userName = input.UserName.trim();
  // Attempts per client address, counted in the database so every server process sees them.
  const [fromAddress] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), gt(loginAttempts.at, new Date(Date.now() - 60_000))));
  if ((fromAddress?.n ?? 0) >= perMinuteFromAddress)
    throw new AppError(429, 'request.rateLimited', { seconds: 60 });
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`)
    .limit(1);
  const who = { userName: user?.userName ?? '', userId: user?.userId ?? null, appId: null };
  // Unknown names cost the same time as known ones, so timing does not reveal which exist.
  const ok = await throttledPasswordCheck(ctx, {
    kind: 'login',
    userName,
    hash: user?.passwordHash ?? (await dummyHash()),
    password: input.Password,
    audit: { entityId: user?.userId ?? '', ...who },
    failure: { action: 'login.failed' },
  });
  if (!user || !ok) {
    await db.insert(loginAttempts).values({ userName: who.userName, success: false, ip });
    if (Math.random() < 0.01) await pruneGuesses(db);
    throw new AppError(401, 'auth.badCredentials');
  }
  /** A known user with the right password refused all the same: audited as denied, then 403. */
  const refuse = async (action: 'login.disabled' | 'login.noProduct', key: MessageKey): Promise<never> => {
    await audit(db, ctx, {
      action,
      entity: 'user',
      entityId: user.userId,
      outcome: 'denied',
      userName,
      appId: null,
      userId: user.userId,
    });
    throw new AppError(403, key);
  };
  if (!user.enabled) await refuse('login.disabled', 'auth.disabled');
  const appList = await appsOfUser(db, user.userId);
  const eligible = appList.filter(holdsProduct);
  if (eligible.length === 0) {
    await db.insert(loginAttempts).values({ userName: user.userName, success: true, ip });
    await refuse('login.noProduct', 'auth.noProduct');
  }
  const chosen = input.AppId !== undefined ? eligible.find((a) => a.AppId === input.AppId) : eligible[0];
  if (!chosen) throw new AppError(403, 'auth.noApp', {}, 'AppId');
  const lastTime = user.lastLoginAt;
  const session = await db.transaction(async (tx) => {
    const s = await createSession(tx, {
      userId: user.userId,
      appId: chosen.AppId,
      kind: 'login',
      ttlMs: opts.ttlMs,
      ip,
      userAgent: ctx.userAgent,
    });
    await tx.update(users).set({ lastLoginAt: new Date() }).where(eq(users.userId, user.userId));
    await tx.insert(loginAttempts).values({ userName: user.userName, success: true, ip });
    await audit(tx, ctx, {
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

/** Ends the session of the request (Logout); its key answers 401 from now on. */
export async function logout(ctx: SignedIn) {
  await endSession(ctx.db, ctx.auth.sessionId);
  await audit(ctx.db, ctx, { action: 'logout', entity: 'user', entityId: ctx.userId });
}

/** Moves the session to another app of the user that holds the product (SetCurrentApp). */
export async function setCurrentApp(ctx: SignedIn, appId: number): Promise<CurrentAppSwitched> {
  const target = (await appsOfUser(ctx.db, ctx.userId)).find((a) => a.AppId === appId);
  if (!target) throw new AppError(403, 'auth.noApp', {}, 'params.0');
  if (!holdsProduct(target)) throw new AppError(403, 'auth.noProduct');
  await switchSessionApp(ctx.db, ctx.auth.sessionId, appId);
  await audit(ctx.db, ctx, {
    action: 'app.switch',
    entity: 'session',
    entityId: ctx.auth.sessionId,
    before: { AppId: ctx.appId },
    after: { AppId: appId },
    appId,
  });
  return { AppId: target.AppId, AppShortName: target.AppShortName, AppName: target.AppName };
}

/** The signed-in user and their current app (GetCurrentUser, GET current_user). */
export async function currentUser(db: Tx, userId: number, appId: number): Promise<CurrentUser> {
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
export async function productMenusAndPermissions(
  db: Tx,
  userId: number,
  appId: number,
  productId: number,
): Promise<ProductMenusResult> {
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
 * What one answer of `GetProductMenusAndPermissions` depends on, as an entity tag: the user's
 * menus and functions in the app (the session's permissions, already read for this request), the
 * product, the menu catalogue (`menuCatalogue`) and the revision of the answer's shape and of the
 * always-allowed routes (code, not data). A role edit that changes what the user holds changes the
 * tag, so a browser that revalidates never keeps stale menus; a change to somebody else's roles
 * does not (the tag was once the database's ACL version, which every user or role change
 * anywhere bumped, so nobody's kept menus lasted on a busy site). The answer is the same in
 * every language.
 */
export function productMenusTag(
  catalogue: string,
  held: { routerNames: ReadonlySet<string>; apiIds: ReadonlySet<string> },
  userId: number,
  appId: number,
  productId: number,
) {
  const basis = [
    MENUS_ANSWER_REVISION,
    catalogue,
    userId,
    appId,
    productId,
    [...held.routerNames].sort().join(','),
    [...held.apiIds].sort().join(','),
  ].join('|');
  return `"m${createHash('sha256').update(basis).digest('base64url').slice(0, 22)}"`;
}

/**
 * The menu catalogue's ids (menus and functions, which the seed writes from the route table at
 * start-up and nothing changes while the server runs) as one short fingerprint.
 */
export async function menuCatalogue(db: Tx): Promise<string> {
  const [m] = await db
    .select({
      n: sql<string>`count(*)::text`,
      sum: sql<string>`coalesce(sum(${menus.menuId} * 31 + coalesce(${menus.parentId}, 0)), 0)::text`,
    })
    .from(menus);
  const [f] = await db
    .select({
      n: sql<string>`count(*)::text`,
      sum: sql<string>`coalesce(sum(${functions.funcId} * 31 + ${functions.menuId}), 0)::text`,
    })
    .from(functions);
  return `${m?.n}:${m?.sum}:${f?.n}:${f?.sum}`;
}
const MENUS_ANSWER_REVISION = `1:${ALWAYS_ALLOWED_ROUTES.join(',')}`;

/**
 * One password check throttled per (user name, address): the guess is counted before it is
 * checked (`reserveGuess`), a right one clears the count. Audited under `kind`: `.locked` when the
 * address must still wait (then 429 with the seconds), the given failure row when wrong, and
 * `.lockout` when this wrong guess starts a wait. Returns whether the password was right.
 */
async function throttledPasswordCheck(
  ctx: RequestContext,
  o: {
    kind: 'login' | 'password';
    userName: string;
    hash: string;
    password: string;
    /** Who and what the rows are about (sign-in rows name the user; there is no session yet). */
    audit: Pick<AuditEntry, 'entityId' | 'userName' | 'userId' | 'appId'>;
    failure: Pick<AuditEntry, 'action' | 'reason'>;
    /** The field a 429 names (the old-password field of a change). */
    field?: string;
  },
): Promise<boolean> {
  const { db, ip } = ctx;
  const about = { entity: 'user', ...o.audit };
  const guess = await reserveGuess(db, o.userName, ip);
  if (!guess.allowed) {
    await audit(db, ctx, {
      ...about,
      action: `${o.kind}.locked`,
      outcome: 'denied',
      after: { failures: guess.failures, seconds: guess.seconds },
    });
    throw new AppError(429, 'auth.tooManyGuesses', { seconds: guess.seconds }, o.field);
  }
  if (await verifyPassword(o.hash, o.password)) {
    await clearGuesses(db, o.userName, ip);
    return true;
  }
  await audit(db, ctx, { ...about, ...o.failure, outcome: 'failure' });
  if (guess.startsWait)
    await audit(db, ctx, {
      ...about,
      action: `${o.kind}.lockout`,
      outcome: 'denied',
      after: { failures: guess.failures, seconds: guess.startsWait.seconds },
    });
  return false;
}

/**
 * Checks a signed-in user's own password (the old one when changing it, an administrator's
 * own when resetting it), throttled like sign-in: the guess counts for (user, address) before
 * it is checked, and past the threshold the address waits. A wrong one is a 400 naming `field`.
 */
export async function checkOwnPassword(
  ctx: RequestContext,
  user: { userId: number; userName: string; passwordHash: string },
  password: string,
  field: string,
) {
  const ok = await throttledPasswordCheck(ctx, {
    kind: 'password',
    userName: user.userName,
    hash: user.passwordHash,
    password,
    audit: { entityId: user.userId },
    failure: { action: 'password.change', reason: 'old password wrong' },
    field,
  });
  if (ok) return;
  throw new AppError(400, 'password.oldWrong', {}, field);
}

/**
 * Changes a password. Both values arrive decrypted; the old one must match (guesses throttled
 * per address), the new one must pass the policy of spec 000 section 5. Every other session of
 * the user ends.
 */
export async function changePassword(ctx: SignedIn, oldPwd: string, newPwd: string) {
  const { db, userId } = ctx;
  const [user] = await db.select().from(users).where(eq(users.userId, userId));
  if (!user) throw new AppError(401, 'auth.required');
  await checkOwnPassword(ctx, user, oldPwd, 'oldPwd');
  const policy = checkPasswordPolicy(newPwd);
  if (!policy.ok) throw new AppError(400, policy.problem!, {}, 'newPwd');
  if (oldPwd === newPwd) throw new AppError(400, 'password.same', {}, 'newPwd');
  const passwordHash = await hashPassword(newPwd);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date() })
      .where(eq(users.userId, userId));
    await endOtherSessions(tx, userId, ctx.auth.sessionId);
    await audit(tx, ctx, { action: 'password.change', entity: 'user', entityId: userId });
  });
}
