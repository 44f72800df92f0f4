import { FUNCTION_ACTIONS, flattenRoutes, functionsOf, PRODUCT_ID, type RouteEntry } from '@crdp/core';
import { notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { functions, menus } from '../db/schema/index.js';

/**
 * Makes the menus and functions rows match the route table, at every start: new routes
 * appear, changed titles update, removed ones go (with their grants). Roles keep their
 * grants of the rest because ids are stable.
 */
export async function syncMenus(db: Tx, table?: RouteEntry[]) {
  const routes = flattenRoutes(table);
  const funcs = functionsOf(table);
  const rows = routes.map((r) => ({
    menuId: r.menuId,
    routerName: r.name,
    parentId: r.parentId,
    path: r.path,
    title: r.title['zh-CN'],
    titleEn: r.title['en-US'],
    icon: r.icon ?? '',
    sortOrder: r.order,
    hidden: r.hidden ?? false,
    productId: PRODUCT_ID,
  }));
  if (rows.length) {
    await db
      .insert(menus)
      .values(rows)
      .onConflictDoUpdate({
        target: menus.menuId,
        set: {
          routerName: sql`excluded.router_name`,
          parentId: sql`excluded.parent_id`,
          path: sql`excluded.path`,
          title: sql`excluded.title`,
          titleEn: sql`excluded.title_en`,
          icon: sql`excluded.icon`,
          sortOrder: sql`excluded.sort_order`,
          hidden: sql`excluded.hidden`,
        },
      });
  }
  if (funcs.length) {
    await db
      .insert(functions)
      .values(funcs.map((f) => ({ ...f, title: f.action })))
      .onConflictDoUpdate({
        target: functions.funcId,
        set: { menuId: sql`excluded.menu_id`, apiId: sql`excluded.api_id`, action: sql`excluded.action` },
      });
  }
  if (funcs.length)
    await db.delete(functions).where(
      notInArray(
        functions.funcId,
        funcs.map((f) => f.funcId),
      ),
    );
  if (routes.length)
    await db.delete(menus).where(
      notInArray(
        menus.menuId,
        routes.map((r) => r.menuId),
      ),
    );
  return { menus: routes.length, functions: funcs.length, actions: FUNCTION_ACTIONS.length };
}
