import type { HandoffIdentity } from '@crdp/core';
import { exchangeHandoff, getCurrentUser, openFreeAccess, peekHandoff } from '../api/auth';
import { readAddressParams, withoutConsumedParams, withoutFragmentKey } from './address';
import { requestApp } from './auth-flow';
import { clearSession, getSession, updateSession } from './session';

/** Who holds the browser's session now: a signed-in user in an app, or a free-access link. */
export type CurrentHolder = { kind: 'user'; who: HandoffIdentity } | { kind: 'free'; scope: string };

/** What the start-up found in the address. */
export type BootOutcome =
  | { kind: 'ready'; notice?: string }
  /** Nobody is signed in and the link could not be used: a page says why. */
  | { kind: 'failed'; what: 'handoff' | 'freeAccess'; message: string }
  /** Someone else is signed in: the page asks before switching to the code's user. */
  | { kind: 'ask'; code: string; current: CurrentHolder; next: HandoffIdentity };

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Stores a session a hand-off code opened: what the browser held of the previous session goes,
 * the address's display flags stay; menus load on the first guarded page.
 */
export function adoptHandoff(s: { SessionKey: string }) {
  const { hideMenu, crfObjectId } = getSession();
  clearSession();
  updateSession({ token: s.SessionKey, hideMenu, crfObjectId });
}

/**
 * A hand-off code (`?SessionKey=`, spec 000 section 2). Nobody signed in: use it. Signed in as
 * the code's user and app: nothing to do, the code is left unused. Anyone else: ask first
 * (the code is only peeked at; the session in the browser stays until the person says switch).
 */
async function handOff(code: string): Promise<BootOutcome> {
  const s = getSession();
  let current: CurrentHolder | null = null;
  if (s.token && s.ssh) current = { kind: 'free', scope: s.ssh };
  else if (s.token) {
    try {
      const u = await getCurrentUser();
      current = {
        kind: 'user',
        who: {
          UserId: u.UserId,
          UserName: u.UserName,
          NickName: u.NickName || u.UserName,
          AppId: u.AppId,
          AppName: u.AppName ?? '',
          AppShortName: u.AppShortName ?? '',
        },
      };
    } catch {
      // The stored key no longer works: nobody is signed in.
      current = null;
    }
  }
  if (!current) {
    try {
      adoptHandoff(await exchangeHandoff(code));
      return { kind: 'ready' };
    } catch (e) {
      return { kind: 'failed', what: 'handoff', message: messageOf(e) };
    }
  }
  let next: HandoffIdentity;
  try {
    next = await peekHandoff(code);
  } catch (e) {
    // A used, expired or unknown code changes nothing for the person signed in.
    return { kind: 'ready', notice: messageOf(e) };
  }
  if (current.kind === 'user' && current.who.UserId === next.UserId && current.who.AppId === next.AppId)
    return { kind: 'ready' };
  return { kind: 'ask', code, current, next };
}

/**
 * Reads the address parameters once at start-up (spec 000 section 2) and rewrites the address.
 * The one-time values (`SessionKey` hand-off code, free-access `key` in the fragment or, from
 * older links, the query, `AppId`) leave the address at once, before any request. A hand-off
 * code signs in and lands on the workbench (asking first when someone else is signed in); `key`
 * exchanges a free-access key for a scoped session and lands in its route set; `hide_menu`, `id`
 * and `routerPath` are kept in the session state.
 */
export async function bootFromAddress(): Promise<BootOutcome> {
  const { pathname, search, hash } = window.location;
  const p = readAddressParams(search, hash);
  let path = pathname;
  if (p.routerPath) path = p.routerPath;
  if (p.handoffCode) path = '/dashboard/workplace';
  const q = new URLSearchParams(withoutConsumedParams(search));
  q.delete('routerPath');
  const rest = q.toString();
  const fragment = withoutFragmentKey(hash);
  const rewrite = () => {
    const next = `${path}${rest ? `?${rest}` : ''}${fragment}`;
    if (next !== `${window.location.pathname}${window.location.search}${window.location.hash}`)
      window.history.replaceState(null, '', next);
  };
  // First of all: no code or key stays in the address, the history or a bookmark.
  rewrite();

  if (p.hideMenu) updateSession({ hideMenu: true });
  if (p.id) updateSession({ crfObjectId: p.id });
  if (p.appId) requestApp(p.appId);
  // The extra route set: one page of the table opened on its own, without the menu.
  if (p.routerPath) updateSession({ hideMenu: true });

  let outcome: BootOutcome = { kind: 'ready' };
  if (p.handoffCode) outcome = await handOff(p.handoffCode);
  if (p.key && outcome.kind === 'ready') {
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
      rewrite();
    } catch (e) {
      outcome = { kind: 'failed', what: 'freeAccess', message: messageOf(e) };
    }
  }
  return outcome;
}
