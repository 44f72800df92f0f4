import { describe, expect, it } from 'vitest';
import { FUNCTION_ACTIONS } from '../constants.js';
import { flattenRoutes, functionsOf, functionWords } from './index.js';
import { FREE_ROUTE_SETS, LOGIN_FREE_ROUTE_NAMES, ROUTE_TABLE } from './table.js';

const all = flattenRoutes(ROUTE_TABLE);
const free = Object.values(FREE_ROUTE_SETS).flatMap((set) => flattenRoutes(set.routes));

describe('route table', () => {
  it('has unique menu ids and route names, free sets included', () => {
    const entries = [...all, ...free];
    expect(new Set(entries.map((r) => r.menuId)).size).toBe(entries.length);
    expect(new Set(entries.map((r) => r.name)).size).toBe(entries.length);
  });

  it('numbers every area N as N*100 and its descendants N*100+1, N*100+2, ... in order', () => {
    for (const area of ROUTE_TABLE) {
      expect(area.menuId % 100).toBe(0);
      const descendants = flattenRoutes(area.children ?? []);
      expect(descendants.map((d) => d.menuId)).toEqual(descendants.map((_, i) => area.menuId + i + 1));
    }
  });

  it('uses absolute paths, each under its area prefix and its parent path', () => {
    const byId = new Map(all.map((r) => [r.menuId, r]));
    for (const r of all) {
      expect(r.path).toMatch(/^\/[^\s?#]*$/);
      if (r.parentId !== null) expect(r.path.startsWith(`${byId.get(r.parentId)?.path}/`)).toBe(true);
    }
    const prefixes = ROUTE_TABLE.map((a) => a.path);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(new Set(all.map((r) => r.path)).size).toBe(all.length);
  });

  it('keeps the names other code relies on', () => {
    const names = new Set(all.map((r) => r.name));
    for (const n of [
      'dashboard',
      'Workplace',
      'DatabasesDetails',
      'exception403',
      'exception404',
      'exception500',
    ]) {
      expect(names.has(n)).toBe(true);
    }
    expect(all.find((r) => r.name === 'Workplace')?.path).toBe('/dashboard/workplace');
    expect(all.find((r) => r.name === 'DatabasesDetails')?.wide).toBe(true);
    expect(
      all.filter((r) => r.path.startsWith('/exception')).every((r) => r.name.startsWith('exception')),
    ).toBe(true);
  });

  it('gives every route both titles, every area an icon, and only known actions', () => {
    for (const r of [...all, ...free]) {
      expect(r.title['zh-CN'].length).toBeGreaterThan(0);
      expect(r.title['en-US'].length).toBeGreaterThan(0);
      for (const a of r.actions ?? []) expect(FUNCTION_ACTIONS).toContain(a);
    }
    for (const area of ROUTE_TABLE) expect(area.icon).toMatch(/^[A-Z]\w+(Outlined|Filled|TwoTone)$/);
  });

  it('derives unique function ids from the actions', () => {
    const funcs = functionsOf(ROUTE_TABLE);
    expect(new Set(funcs.map((f) => f.funcId)).size).toBe(funcs.length);
    expect(funcs.find((f) => f.apiId === 'UserManage.add')?.menuId).toBe(2102);
  });

  it('keeps the free sets under their roots and their names login-free', () => {
    for (const set of Object.values(FREE_ROUTE_SETS)) {
      for (const r of set.routes) {
        expect(r.path === set.root || r.path.startsWith(`${set.root}/`)).toBe(true);
        expect(LOGIN_FREE_ROUTE_NAMES).toContain(r.name);
      }
    }
    expect(all.some((r) => r.path.startsWith('/crf/') || r.path.startsWith('/lg/'))).toBe(false);
  });
});

describe('functionWords', () => {
  it('names a function by its screen and action in both languages', () => {
    expect(functionWords('UserManage.query')).toEqual({
      'zh-CN': '用户管理 · 查询',
      'en-US': 'Users · Search',
    });
  });
  it('keeps an ApiId the route table does not know', () => {
    expect(functionWords('Nowhere.query')).toEqual({ 'zh-CN': 'Nowhere.query', 'en-US': 'Nowhere.query' });
  });
});
