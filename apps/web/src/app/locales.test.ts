import { ROUTE_TABLE } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { ROUTE_ICONS } from './icons';
import { enUS } from './locales/en-US';
import { zhCN } from './locales/zh-CN';

describe('locales', () => {
  it('have the same keys in both languages', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(enUS).sort()).toEqual(keys(zhCN).sort());
  });

  it('carry the spec texts of the error pages and password checks', () => {
    expect(zhCN.exception[403]).toContain('无权访问');
    expect(enUS.exception[404]).toBe('Sorry, the page does not exist or is still under development');
    expect(zhCN.password.oldRequired).toBe('旧密码不能为空');
    expect(zhCN.password.mismatch).toBe('两次输入的密码不一致，请重新提交');
    expect(zhCN.password.mismatchInline).toBe('两次输入的密码不一致');
    expect(zhCN.header.logoutDone).toBe('退出成功');
    expect(enUS.header.logoutDone).toBe('Exit successful');
  });

  it('name every route icon the route table uses', () => {
    for (const area of ROUTE_TABLE) expect(ROUTE_ICONS[area.icon ?? '']).toBeDefined();
  });
});
