import type { RouteEntry } from '@crdp/core';
import { flattenRoutes, ROUTE_TABLE } from '@crdp/core';
import { type Access, isRouteAllowed } from './grants';

// What needs no route table lives in grants.ts (the start-up and the login page use it without
// downloading the table); it is exported from here too.
export * from './grants';

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
