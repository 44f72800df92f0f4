import { FUNCTION_ACTIONS, type FunctionAction } from '../constants.js';
import { ROUTE_TABLE } from './table.js';
import type { FunctionEntry, LocalizedText, RouteEntry } from './types.js';

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

/** An action of a function in words, as the permission tree shows it. */
export const FUNCTION_ACTION_WORDS: Record<FunctionAction, LocalizedText> = {
  add: { 'zh-CN': '新增', 'en-US': 'Add' },
  delete: { 'zh-CN': '删除', 'en-US': 'Delete' },
  edit: { 'zh-CN': '编辑', 'en-US': 'Edit' },
  query: { 'zh-CN': '查询', 'en-US': 'Search' },
  get: { 'zh-CN': '详情', 'en-US': 'Details' },
  enable: { 'zh-CN': '启用', 'en-US': 'Enable' },
  disable: { 'zh-CN': '停用', 'en-US': 'Disable' },
  import: { 'zh-CN': '导入', 'en-US': 'Import' },
  export: { 'zh-CN': '导出', 'en-US': 'Export' },
};

let titles: Map<string, LocalizedText> | undefined;

/**
 * A function (`UserManage.query`) in words: its screen's title and the action, e.g.
 * 用户管理 · 查询 / User management · Search. An ApiId the table does not know stays as it is.
 */
export function functionWords(apiId: string): LocalizedText {
  titles ??= new Map(flattenRoutes().map((r) => [r.name, r.title]));
  const dot = apiId.lastIndexOf('.');
  const title = titles.get(apiId.slice(0, dot));
  const action = FUNCTION_ACTION_WORDS[apiId.slice(dot + 1) as FunctionAction];
  if (!title || !action) return { 'zh-CN': apiId, 'en-US': apiId };
  return {
    'zh-CN': `${title['zh-CN']} · ${action['zh-CN']}`,
    'en-US': `${title['en-US']} · ${action['en-US']}`,
  };
}

/** Route names that every signed-in user may open, whatever their roles (spec 000 section 6). */
export const ALWAYS_ALLOWED_ROUTES = ['dashboard', 'Workplace', 'exception'] as const;
