import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { flattenRoutes, functionsOf, PRODUCT_ID } from '@crdp/core';
import { eq } from 'drizzle-orm';
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
  seedMarks,
  users,
} from '../db/schema/index.js';

export type DemoRole = 'admin' | 'researcher' | 'no-product';
export interface DemoAccount {
  username: string;
  password: string;
  role: DemoRole;
}

/** Areas a researcher works in; everything else (system settings, QC administration...) is the administrator's. */
export const RESEARCHER_AREAS = [
  '/dashboard',
  '/data-lake',
  '/visualization',
  '/personalInformation',
  '/zhuanbing-library',
  '/scientific-research-subject',
  '/crf-management',
] as const;
const RESEARCHER_ACTIONS = new Set(['query', 'get', 'add', 'edit', 'export']);

/** A password that passes the policy: random letters and digits plus one of each kind. */
export function generatePassword() {
  return `${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}Aa1!`;
}

/**
 * Creates the demo app, roles and accounts once. A second start finds the seed mark and does
 * nothing, so neither passwords nor data change behind the user's back.
 */
export async function seedDemo(
  db: Db,
  dataDir: string,
  demoPassword?: string,
): Promise<DemoAccount[] | null> {
  const [mark] = await db.select().from(seedMarks).where(eq(seedMarks.name, 'demo'));
  if (mark) return null;
  const pw = (role: DemoRole) => demoPassword ?? (role ? generatePassword() : '');
  const accounts: DemoAccount[] = [
    { username: 'admin', password: pw('admin'), role: 'admin' },
    { username: 'researcher', password: pw('researcher'), role: 'researcher' },
    { username: 'lab', password: pw('no-product'), role: 'no-product' },
  ];
  const hashes = await Promise.all(accounts.map((a) => hashPassword(a.password)));
  const routes = flattenRoutes();
  const funcs = functionsOf();
  await db.transaction(async (tx) => {
    const [hospital] = await tx
      .insert(apps)
      .values({ appShortName: 'DEMO', name: '示范医院', appType: 'hospital' })
      .returning();
    const [lab] = await tx
      .insert(apps)
      .values({ appShortName: 'LAB', name: '检验科实验室', appType: 'laboratory' })
      .returning();
    await tx.insert(appProducts).values([
      { appId: hospital!.appId, productId: PRODUCT_ID },
      { appId: lab!.appId, productId: PRODUCT_ID + 1 },
    ]);
    const created = await tx
      .insert(users)
      .values(
        accounts.map((a, i) => ({
          userName: a.username,
          nickname: a.role === 'admin' ? '系统管理员' : a.role === 'researcher' ? '科研人员' : '检验科用户',
          passwordHash: hashes[i]!,
        })),
      )
      .returning();
    const [admin, researcher, labUser] = created;
    await tx.insert(appMembers).values([
      { appId: hospital!.appId, userId: admin!.userId },
      { appId: hospital!.appId, userId: researcher!.userId },
      { appId: lab!.appId, userId: labUser!.userId },
    ]);
    const [adminRole, researcherRole] = await tx
      .insert(roles)
      .values([
        { appId: hospital!.appId, roleName: '系统管理员', description: '全部菜单与功能' },
        { appId: hospital!.appId, roleName: '科研人员', description: '数据采集、专病库、科研课题与 CRF' },
      ])
      .returning();
    await tx.insert(roleUsers).values([
      { roleId: adminRole!.roleId, userId: admin!.userId },
      { roleId: researcherRole!.roleId, userId: researcher!.userId },
    ]);
    await tx.insert(roleMenus).values(routes.map((r) => ({ roleId: adminRole!.roleId, menuId: r.menuId })));
    if (funcs.length) {
      await tx
        .insert(roleFunctions)
        .values(funcs.map((f) => ({ roleId: adminRole!.roleId, funcId: f.funcId })));
    }
    const inResearch = (p: string) => RESEARCHER_AREAS.some((a) => p === a || p.startsWith(`${a}/`));
    const researchMenus = routes.filter((r) => inResearch(r.path));
    await tx
      .insert(roleMenus)
      .values(researchMenus.map((r) => ({ roleId: researcherRole!.roleId, menuId: r.menuId })));
    const researchFuncs = funcs.filter(
      (f) => researchMenus.some((m) => m.menuId === f.menuId) && RESEARCHER_ACTIONS.has(f.action),
    );
    if (researchFuncs.length) {
      await tx
        .insert(roleFunctions)
        .values(researchFuncs.map((f) => ({ roleId: researcherRole!.roleId, funcId: f.funcId })));
    }
    await tx.insert(seedMarks).values({ name: 'demo' });
  });
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'demo-accounts.json');
  await writeFile(file, `${JSON.stringify({ users: accounts }, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return accounts;
}
