import type { FunctionAction, ProductMenusResult, RouteEntry } from '@crdp/core';
import { flattenRoutes, ROUTE_TABLE } from '@crdp/core';

/** `GetProductMenusAndPermissions` result (spec 000 section 3): the contract of @crdp/core. */
export type { ProductMenusResult };

/** What the signed-in user may open and do, built once after sign-in. */
export interface Access {
  /** Router names of the user's menus. */
  routerNames: ReadonlySet<string>;
  /** Api ids of the user's functions (`RoleManage.add`, ...). */
  apiIds: ReadonlySet<string>;
}

export const NO_ACCESS: Access = { routerNames: new Set(), apiIds: new Set() };

/**
 * A route's permission list is its own name plus the api ids of its menu's functions; it shows
 * when the list holds one of the user's router names (spec 000 section 6).
 */
export function buildAccess(result: ProductMenusResult): Access {
  const granted = new Set(result.Permissions);
  return {
    routerNames: new Set(result.ProductMenus.map((m) => m.RouterName)),
    apiIds: new Set(result.PermissionFuncs.filter((f) => granted.has(f.FuncId)).map((f) => f.ApiId)),
  };
}

/** dashboard and exception routes are open to every signed-in user. */
export function isAlwaysAllowed(name: string) {
  return name === 'dashboard' || name === 'Workplace' || name.startsWith('exception');
}

export function isRouteAllowed(access: Access, route: Pick<RouteEntry, 'name'>) {
  return isAlwaysAllowed(route.name) || access.routerNames.has(route.name);
}

/** The `permissionId.action` check of spec 000 section 6, e.g. `hasAction(a, 'UserManage', 'add')`. */
export function hasAction(access: Access, permissionId: string, action: FunctionAction) {
  return access.apiIds.has(`${permissionId}.${action}`);
}

export function hasApiId(access: Access, apiId: string) {
  return access.apiIds.has(apiId);
}

/**
 * The menu tree: allowed, not hidden entries. An area stays when it is allowed itself or holds
 * an allowed child; an area left without visible children is dropped. With `hasPage`, screens
 * that are not built yet are left out too, so the menu never leads to a dead end.
 */
export function menuTree(
  access: Access,
  table: RouteEntry[] = ROUTE_TABLE,
  hasPage: (name: string) => boolean = () => true,
): RouteEntry[] {
  const walk = (entries: RouteEntry[]): RouteEntry[] =>
    entries.flatMap((e) => {
      if (e.hidden) return [];
      if (!e.children?.length) return isRouteAllowed(access, e) && hasPage(e.name) ? [{ ...e }] : [];
      const children = walk(e.children);
      return children.length ? [{ ...e, children }] : [];
    });
  return walk(table);
}

/** Menu root from the stored `ssh` value: /crf for the CRF set, /lg for the term set, else /. */
export function menuRoot(ssh: string | null | undefined): '/crf' | '/lg' | '/' {
  if (ssh?.includes('crf')) return '/crf';
  if (ssh) return '/lg';
  return '/';
}

export type PathResolution =
  | { kind: 'allowed'; route: RouteEntry }
  | { kind: 'forbidden'; route: RouteEntry }
  | { kind: 'notFound' };

/**
 * What the guard answers for an address: the route when the user may open it, 403 when a
 * route table knows the path but the user's set does not allow it, 404 when no table knows it.
 * In a free set (CRF-only, term view) every route of the set is open: the session's scope
 * decides, and the server enforces it.
 */
export function resolvePath(
  pathname: string,
  access: Access,
  active: { routes: RouteEntry[]; free: boolean },
  known: RouteEntry[],
): PathResolution {
  const path = normalizePath(pathname);
  const route = flattenRoutes(active.routes).find((r) => r.path === path);
  if (route) {
    return active.free || isRouteAllowed(access, route)
      ? { kind: 'allowed', route }
      : { kind: 'forbidden', route };
  }
  const elsewhere = flattenRoutes(known).find((r) => r.path === path);
  return elsewhere ? { kind: 'forbidden', route: elsewhere } : { kind: 'notFound' };
}

export function normalizePath(pathname: string) {
  const p = pathname.split(/[?#]/)[0] ?? '/';
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p || '/';
}

/** First allowed, visible leaf of a menu subtree: where a click on an area lands. */
export function firstLeaf(entry: RouteEntry, opens?: (e: RouteEntry) => boolean): RouteEntry {
  if (opens?.(entry)) return entry;
  const child = entry.children?.[0];
  return child ? firstLeaf(child, opens) : entry;
}
