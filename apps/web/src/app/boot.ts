import { openFreeAccess } from '../api/auth';
import { readAddressParams, withoutConsumedParams } from './address';
import { requestApp } from './auth-flow';
import { updateSession } from './session';

/**
 * Reads the address parameters once at start-up (spec 000 section 2) and rewrites the address:
 * `SessionKey` signs in and lands on the workbench; `key` exchanges a free-access key for a
 * scoped session and lands in its route set; `hide_menu`, `id`, `AppId` and `routerPath` are kept
 * in the session state. Returns an error message when a free-access key is refused.
 */
export async function bootFromAddress(): Promise<string | null> {
  const { pathname, search } = window.location;
  const p = readAddressParams(search);
  let path = pathname;
  if (p.hideMenu) updateSession({ hideMenu: true });
  if (p.id) updateSession({ crfObjectId: p.id });
  if (p.appId) requestApp(p.appId);
  if (p.routerPath) {
    // The extra route set: one page of the table opened on its own, without the menu.
    updateSession({ hideMenu: true });
    path = p.routerPath;
  }
  if (p.sessionKey) {
    updateSession({ token: p.sessionKey, user: null, access: null, ssh: null });
    path = '/dashboard/workplace';
  }
  let failure: string | null = null;
  if (p.key) {
    try {
      const s = await openFreeAccess(p.key);
      const crf = s.scope.kind === 'crf';
      updateSession({
        token: s.SessionKey,
        user: null,
        access: null,
        ssh: crf ? 'crf' : 'lg',
        crfObjectId: s.scope.objectId == null ? null : String(s.scope.objectId),
      });
      if (crf && !path.startsWith('/crf')) path = '/crf';
      if (!crf && !path.startsWith('/lg/term')) path = '/lg/term/view';
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
  }
  const q = new URLSearchParams(withoutConsumedParams(search));
  q.delete('routerPath');
  const rest = q.toString();
  const next = `${path}${rest ? `?${rest}` : ''}${window.location.hash}`;
  if (next !== `${pathname}${search}${window.location.hash}`) window.history.replaceState(null, '', next);
  return failure;
}
