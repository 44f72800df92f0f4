import { checkPasswordPolicy, flattenRoutes, functionsOf, PRODUCT_ID } from '@crdp/core';
import { eq, sql } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import type { Db } from '../db/client.js';
import {
  appMembers,
  appProducts,
  apps,
  roleFunctions,
  roleMenus,
  roles,
  roleUsers,
  users,
} from '../db/schema/index.js';

export interface FirstAdmin {
  userName: string;
  password: string;
  appShortName: string;
  appName?: string;
}

/**
 * Creates the first administrator of a site without demo data: an app holding product 22 (made
 * if missing), an administrator role with every menu and function, and the user.
 */
export async function createAdministrator(db: Db, a: FirstAdmin) {
  const policy = checkPasswordPolicy(a.password);
  if (!policy.ok)
    throw new Error(
      `The password does not meet the policy (${policy.problem}): 8 to 32 characters, three of upper, lower, digit, special`,
    );
  if (!/^[\w.@-]{2,64}$/.test(a.userName))
    throw new Error('The user name must be 2 to 64 letters, digits or . _ @ -');
  const passwordHash = await hashPassword(a.password);
  return db.transaction(async (tx) => {
    const [exists] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.userName}) = lower(${a.userName})`);
    if (exists) throw new Error(`A user named ${a.userName} already exists`);
    let [app] = await tx.select().from(apps).where(eq(apps.appShortName, a.appShortName));
    if (!app) {
      [app] = await tx
        .insert(apps)
        .values({ appShortName: a.appShortName, name: a.appName ?? a.appShortName })
        .returning();
      await tx.insert(appProducts).values({ appId: app!.appId, productId: PRODUCT_ID });
    }
    const [user] = await tx
      .insert(users)
      .values({ userName: a.userName, nickname: '系统管理员', passwordHash })
      .returning();
    await tx.insert(appMembers).values({ appId: app!.appId, userId: user!.userId });
    const [role] = await tx
      .insert(roles)
      .values({ appId: app!.appId, roleName: '系统管理员', description: '全部菜单与功能' })
      .onConflictDoUpdate({
        target: [roles.appId, roles.roleName],
        set: { description: sql`excluded.description` },
      })
      .returning();
    await tx
      .insert(roleMenus)
      .values(flattenRoutes().map((r) => ({ roleId: role!.roleId, menuId: r.menuId })))
      .onConflictDoNothing();
    await tx
      .insert(roleFunctions)
      .values(functionsOf().map((f) => ({ roleId: role!.roleId, funcId: f.funcId })))
      .onConflictDoNothing();
    await tx.insert(roleUsers).values({ roleId: role!.roleId, userId: user!.userId });
    await audit(tx, null, {
      action: 'admin.bootstrap',
      entity: 'user',
      entityId: user!.userId,
      appId: app!.appId,
      userId: null,
      userName: 'create-admin',
      after: { userName: a.userName, app: a.appShortName },
    });
    return { userId: user!.userId, appId: app!.appId };
  });
}
