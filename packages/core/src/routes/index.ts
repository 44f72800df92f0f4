import { FUNCTION_ACTIONS } from '../constants.js';
import { ROUTE_TABLE } from './table.js';
import type { FunctionEntry, RouteEntry } from './types.js';

export * from './table.js';
export * from './types.js';

/** Every entry of a route table, parents before children, with the parent's menu id. */
export function flattenRoutes(table: RouteEntry[] = ROUTE_TABLE) {
  const out: Array<RouteEntry & { parentId: number | null; order: number }> = [];
  const walk = (entries: RouteEntry[], parentId: number | null) => {
    entries.forEach((e, i) => {
      out.push({ ...e, parentId, order: i });
      if (e.children) walk(e.children, e.menuId);
    });
  };
  walk(table, null);
  return out;
}

/** ApiId of an action on a route: `${routeName}.${action}` (the `permissionId.action` of spec 000 section 6). */
export const apiIdOf = (routeName: string, action: string) => `${routeName}.${action}`;

/** The functions of every route: FuncId is menuId * 10 + the action's index, so ids stay stable. */
export function functionsOf(table: RouteEntry[] = ROUTE_TABLE): FunctionEntry[] {
  return flattenRoutes(table).flatMap((r) =>
    (r.actions ?? []).map((action) => ({
      funcId: r.menuId * 10 + FUNCTION_ACTIONS.indexOf(action),
      menuId: r.menuId,
      apiId: apiIdOf(r.name, action),
      action,
    })),
  );
}

/** Route names that every signed-in user may open, whatever their roles (spec 000 section 6). */
export const ALWAYS_ALLOWED_ROUTES = ['dashboard', 'Workplace', 'exception'] as const;
