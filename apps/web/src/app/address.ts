/** The address parameters the shell reads at start-up (spec 000 section 2). */
export interface AddressParams {
  sessionKey: string | null;
  appId: number | null;
  hideMenu: boolean;
  /** CRF object id. */
  id: string | null;
  routerPath: string | null;
  /** Free-access key. */
  key: string | null;
}

export function readAddressParams(search: string): AddressParams {
  const q = new URLSearchParams(search);
  const appId = Number(q.get('AppId'));
  const hide = q.get('hide_menu');
  const routerPath = q.get('routerPath');
  return {
    sessionKey: q.get('SessionKey') || null,
    appId: Number.isInteger(appId) && appId > 0 ? appId : null,
    hideMenu: hide !== null && hide !== '0' && hide !== 'false',
    id: q.get('id') || null,
    routerPath: routerPath?.startsWith('/') && !routerPath.startsWith('//') ? routerPath : null,
    key: q.get('key') || null,
  };
}

/** The query without the one-time parameters the shell consumed (they must not stay in the address). */
export function withoutConsumedParams(search: string): string {
  const q = new URLSearchParams(search);
  for (const k of ['SessionKey', 'AppId', 'key']) q.delete(k);
  const s = q.toString();
  return s ? `?${s}` : '';
}
