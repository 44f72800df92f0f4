import { FREE_ROUTE_SETS, ROUTE_TABLE } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { buildAccess, firstLeaf, hasAction, menuRoot, menuTree, NO_ACCESS, resolvePath } from './access';

const KNOWN = [...ROUTE_TABLE, ...FREE_ROUTE_SETS.crf.routes, ...FREE_ROUTE_SETS.term.routes];
const MAIN = { routes: ROUTE_TABLE, free: false };

const researcher = buildAccess({
  ProductMenus: [
    { MenuId: 200, RouterName: 'DataLake', ParentId: null },
    { MenuId: 201, RouterName: 'DataLakeOverviews', ParentId: 200 },
    { MenuId: 207, RouterName: 'DataLakePatientDetails', ParentId: 200 },
  ],
  PermissionFuncs: [
    { FuncId: 2013, MenuId: 201, ApiId: 'DataLakeOverviews.query' },
    { FuncId: 2014, MenuId: 201, ApiId: 'DataLakeOverviews.get' },
  ],
  Permissions: [2013],
});

describe('access built from product menus', () => {
  it('grants only the functions listed in Permissions', () => {
    expect(hasAction(researcher, 'DataLakeOverviews', 'query')).toBe(true);
    expect(hasAction(researcher, 'DataLakeOverviews', 'get')).toBe(false);
    expect(hasAction(researcher, 'UserManage', 'add')).toBe(false);
  });

  it('shows only allowed, visible routes in the menu, with dashboard always there', () => {
    const tree = menuTree(researcher);
    expect(tree.map((a) => a.name)).toEqual(['dashboard', 'DataLake']);
    expect(tree[1]?.children?.map((c) => c.name)).toEqual(['DataLakeOverviews']);
    expect(menuTree(NO_ACCESS).map((a) => a.name)).toEqual(['dashboard']);
  });

  it('never lists exception pages or hidden routes in the menu', () => {
    const all = buildAccess({
      ProductMenus: [{ MenuId: 1, RouterName: 'DataLakePatientDetails', ParentId: null }],
      PermissionFuncs: [],
      Permissions: [],
    });
    const names = JSON.stringify(menuTree(all));
    expect(names).not.toContain('exception');
    expect(names).not.toContain('DataLakePatientDetails');
  });
});

describe('the route guard answer', () => {
  it('allows a permitted path, the workbench and exception pages', () => {
    expect(resolvePath('/data-lake/overviews', researcher, MAIN, KNOWN).kind).toBe('allowed');
    expect(resolvePath('/data-lake/overviews/', researcher, MAIN, KNOWN).kind).toBe('allowed');
    expect(resolvePath('/dashboard/workplace', NO_ACCESS, MAIN, KNOWN).kind).toBe('allowed');
    expect(resolvePath('/exception/500', NO_ACCESS, MAIN, KNOWN).kind).toBe('allowed');
  });

  it('answers 403 for a path of the table the user lacks, 404 for an unknown path', () => {
    expect(resolvePath('/system/user-manage', researcher, MAIN, KNOWN).kind).toBe('forbidden');
    expect(resolvePath('/no/such/page', researcher, MAIN, KNOWN).kind).toBe('notFound');
  });

  it('in the CRF set opens every CRF route and refuses normal pages', () => {
    const crf = { routes: FREE_ROUTE_SETS.crf.routes, free: true };
    expect(resolvePath('/crf/preview', NO_ACCESS, crf, KNOWN).kind).toBe('allowed');
    expect(resolvePath('/dashboard/workplace', NO_ACCESS, crf, KNOWN).kind).toBe('forbidden');
    expect(resolvePath('/lg/term/view', NO_ACCESS, crf, KNOWN).kind).toBe('forbidden');
    expect(resolvePath('/nowhere', NO_ACCESS, crf, KNOWN).kind).toBe('notFound');
  });

  it('refuses the CRF set to a normal session', () => {
    expect(resolvePath('/crf', researcher, MAIN, KNOWN).kind).toBe('forbidden');
  });
});

describe('menu root from the stored ssh value', () => {
  it('is /crf for a CRF value, /lg for any other value, / when unset', () => {
    expect(menuRoot('crf')).toBe('/crf');
    expect(menuRoot('xx-crf-yy')).toBe('/crf');
    expect(menuRoot('lg')).toBe('/lg');
    expect(menuRoot('')).toBe('/');
    expect(menuRoot(null)).toBe('/');
  });
});

describe('first leaf of an area', () => {
  it('descends to the first child', () => {
    const area = ROUTE_TABLE.find((a) => a.name === 'ScientificResearchSubject')!;
    expect(firstLeaf(area).name).toBe('ResearchProjectData');
  });

  it('stops at a route that opens a page of its own, such as the subject list', () => {
    const area = ROUTE_TABLE.find((a) => a.name === 'ScientificResearchSubject')!;
    const pages = new Set(['ResearchSubjectList', 'ResearchProjectData']);
    expect(firstLeaf(area, (e) => pages.has(e.name)).name).toBe('ResearchSubjectList');
  });
});

describe('menu of built screens only', () => {
  it('leaves out screens without a page and areas left empty', () => {
    const access = buildAccess({
      PermissionFuncs: [],
      Permissions: [],
      ProductMenus: ROUTE_TABLE.flatMap((a) => [a, ...(a.children ?? [])]).map((r) => ({
        MenuId: r.menuId,
        RouterName: r.name,
        ParentId: null,
      })),
    });
    const all = menuTree(access);
    const built = menuTree(access, ROUTE_TABLE, (name) => name === 'Workplace' || name === 'UserManage');
    expect(all.length).toBeGreaterThan(built.length);
    expect(built.flatMap((a) => (a.children ?? []).map((c) => c.name))).toEqual(['Workplace', 'UserManage']);
  });
});
