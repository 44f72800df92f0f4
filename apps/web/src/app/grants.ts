import type { FunctionAction, ProductMenusResult, RouteEntry } from '@crdp/core';

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

/** Menu root from the stored `ssh` value: /crf for the CRF set, /lg for the term set, else /. */
export function menuRoot(ssh: string | null | undefined): '/crf' | '/lg' | '/' {
  if (ssh?.includes('crf')) return '/crf';
  if (ssh) return '/lg';
  return '/';
}
