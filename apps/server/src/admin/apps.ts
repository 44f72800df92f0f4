import type { AdminMember, AppDetails, AppType, RelatedApp } from '@crdp/core';
import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { appMembers, appProducts, apps, users } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';
import { countRoles, memberColumns } from './roles.js';

/** Kinds of app a site runs; the labels travel in both languages of the product. */
export const APP_TYPES: readonly AppType[] = [
  { AppType: 'hospital', Name: '医院', NameEn: 'Hospital' },
  { AppType: 'laboratory', Name: '实验室', NameEn: 'Laboratory' },
  { AppType: 'network', Name: '科研协作网络', NameEn: 'Research network' },
  { AppType: 'department', Name: '科室', NameEn: 'Department' },
];

/** Apps the signed-in user belongs to: the only apps they may relate a role to. */
export async function relatedApps(db: Tx, userId: number, currentAppId: number): Promise<RelatedApp[]> {
  const rows = await db
    .select({ AppId: apps.appId, AppShortName: apps.appShortName, AppName: apps.name, AppType: apps.appType })
    .from(appMembers)
    .innerJoin(apps, eq(apps.appId, appMembers.appId))
    .where(eq(appMembers.userId, userId))
    .orderBy(asc(apps.appId));
  return rows.map((a) => ({ ...a, Current: a.AppId === currentAppId }));
}

/** The current app with its products and how many members and roles it has. */
export async function appDetails(
  db: Tx,
  currentAppId: number,
  askedAppId: number | undefined,
): Promise<AppDetails> {
  if (askedAppId !== undefined && askedAppId !== currentAppId)
    throw new AppError(403, 'admin.otherApp', { id: currentAppId }, 'params.0');
  const [app] = await db.select().from(apps).where(eq(apps.appId, currentAppId));
  if (!app) throw new AppError(404, 'admin.unknownApp', { id: currentAppId });
  const [products, [members], roleCount] = await Promise.all([
    db
      .select({ ProductId: appProducts.productId })
      .from(appProducts)
      .where(eq(appProducts.appId, currentAppId)),
    db.select({ n: count() }).from(appMembers).where(eq(appMembers.appId, currentAppId)),
    countRoles(db, currentAppId),
  ]);
  return {
    AppId: app.appId,
    AppShortName: app.appShortName,
    AppName: app.name,
    AppType: app.appType,
    AppProducts: products,
    MemberCount: members?.n ?? 0,
    RoleCount: roleCount,
    CreatedAt: app.createdAt.toISOString(),
  };
}

/** Members of the current app, for pickers (adding users to a role). */
export async function appMembersList(
  db: Tx,
  appId: number,
  keyword: string | undefined,
  limit: number,
): Promise<AdminMember[]> {
  const k = keyword?.trim();
  return db
    .select(memberColumns)
    .from(appMembers)
    .innerJoin(users, eq(users.userId, appMembers.userId))
    .where(
      and(
        eq(appMembers.appId, appId),
        k
          ? or(ilike(users.userName, `%${escapeLike(k)}%`), ilike(users.nickname, `%${escapeLike(k)}%`))
          : undefined,
      ),
    )
    .orderBy(asc(users.userId))
    .limit(limit);
}
