import { FREE_KEY_PARAM, HANDOFF_PARAM } from '@crdp/core';

/** The address parameters the shell reads at start-up (spec 000 section 2). */
export interface AddressParams {
  /**
   * `SessionKey`: a one-minute, single-use sign-in hand-off code (never a session key), exchanged
   * by a POST for a new session.
   */
  handoffCode: string | null;
  appId: number | null;
  hideMenu: boolean;
  /** CRF object id. */
  id: string | null;
  routerPath: string | null;
  /** Free-access key: from the fragment (`#key=`, new links) or the query (`?key=`, older links). */
  key: string | null;
}

const fragmentParams = (hash: string) => new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);

export function readAddressParams(search: string, hash = ''): AddressParams {
  const q = new URLSearchParams(search);
  const appId = Number(q.get('AppId'));
  const hide = q.get('hide_menu');
  const routerPath = q.get('routerPath');
  return {
    handoffCode: q.get(HANDOFF_PARAM) || null,
    appId: Number.isInteger(appId) && appId > 0 ? appId : null,
    hideMenu: hide !== null && hide !== '0' && hide !== 'false',
    id: q.get('id') || null,
    routerPath: routerPath?.startsWith('/') && !routerPath.startsWith('//') ? routerPath : null,
    key: fragmentParams(hash).get(FREE_KEY_PARAM) || q.get(FREE_KEY_PARAM) || null,
  };
}

/** The query without the one-time parameters the shell consumed (they must not stay in the address). */
export function withoutConsumedParams(search: string): string {
  const q = new URLSearchParams(search);
  for (const k of [HANDOFF_PARAM, 'AppId', FREE_KEY_PARAM]) q.delete(k);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The fragment without a free-access key (`#key=…`); empty when nothing else was in it. */
export function withoutFragmentKey(hash: string): string {
  if (!hash || hash === '#') return '';
  const f = fragmentParams(hash);
  if (!f.has(FREE_KEY_PARAM)) return hash;
  f.delete(FREE_KEY_PARAM);
  const s = f.toString();
  return s ? `#${s}` : '';
}
