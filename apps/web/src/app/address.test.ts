import { describe, expect, it } from 'vitest';
import { readAddressParams, withoutConsumedParams, withoutFragmentKey } from './address';
import { afterLoginAddress, loginAddress, productApps } from './auth-flow';

describe('address parameters', () => {
  it('reads SessionKey, AppId, hide_menu, id, routerPath and key', () => {
    const p = readAddressParams(
      '?SessionKey=abc&AppId=3&hide_menu=1&id=42&routerPath=/data-lake/overviews&key=k',
    );
    expect(p).toEqual({
      handoffCode: 'abc',
      appId: 3,
      hideMenu: true,
      id: '42',
      routerPath: '/data-lake/overviews',
      key: 'k',
    });
  });

  it('ignores malformed values and foreign redirects', () => {
    const p = readAddressParams('?AppId=x&hide_menu=0&routerPath=//evil.example');
    expect(p.appId).toBeNull();
    expect(p.hideMenu).toBe(false);
    expect(p.routerPath).toBeNull();
  });

  it('drops the one-time parameters from the address', () => {
    expect(withoutConsumedParams('?SessionKey=a&AppId=1&key=k&hide_menu=1')).toBe('?hide_menu=1');
  });

  it('reads a free-access key from the fragment first, and drops it from the fragment', () => {
    expect(readAddressParams('?id=7', '#key=frag').key).toBe('frag');
    expect(readAddressParams('?id=7&key=old', '#key=frag').key).toBe('frag');
    expect(readAddressParams('?id=7&key=old', '').key).toBe('old');
    expect(withoutFragmentKey('#key=frag')).toBe('');
    expect(withoutFragmentKey('#key=frag&x=1')).toBe('#x=1');
    expect(withoutFragmentKey('#section-2')).toBe('#section-2');
    expect(withoutFragmentKey('')).toBe('');
  });
});

describe('login redirects', () => {
  it('keeps the query and the requested path', () => {
    expect(loginAddress('/system/user-manage', '?hide_menu=1')).toBe(
      '/user/login?hide_menu=1&redirect=%2Fsystem%2Fuser-manage',
    );
    expect(afterLoginAddress('?hide_menu=1&redirect=%2Fsystem%2Fuser-manage')).toBe(
      '/system/user-manage?hide_menu=1',
    );
    expect(afterLoginAddress('?redirect=https://evil.example')).toBe('/dashboard/workplace');
  });

  it('offers only apps holding product 22', () => {
    const apps = productApps([
      { AppId: 1, AppShortName: 'a', AppName: 'A', AppProducts: [{ ProductId: 22 }] },
      { AppId: 2, AppShortName: 'b', AppName: 'B', AppProducts: [{ ProductId: 7 }] },
    ]);
    expect(apps.map((a) => a.AppId)).toEqual([1]);
  });
});
