/** When the page last reloaded itself for a new version (session storage: this tab only). */
const KEY = 'crdp.reloadedForNewVersion';
/** A second failure this soon after such a reload is not a new version (network down, server gone). */
export const UPGRADE_RELOAD_WINDOW_MS = 60_000;

/**
 * After an upgrade, a tab opened on the old version still asks for the old version's chunks,
 * which are gone (404: the server never answers an asset with index.html). Its next lazy page
 * would fail; instead the page loads the new version (index.html is never cached, so the reload
 * gets it). Once a minute at most, so a real failure still reaches the page's error screen.
 * Returns whether it reloads.
 */
export function reloadForNewVersion(
  store: Pick<Storage, 'getItem' | 'setItem'> | undefined,
  now: number,
  reload: () => void,
): boolean {
  let last = 0;
  try {
    last = Number(store?.getItem(KEY) ?? 0) || 0;
  } catch {
    // Storage disabled: reload anyway, once per page (the flag below is lost with it).
  }
  if (now - last < UPGRADE_RELOAD_WINDOW_MS) return false;
  try {
    store?.setItem(KEY, String(now));
  } catch {
    return false; // cannot remember the reload: do not risk a loop
  }
  reload();
  return true;
}

/** Vite reports a lazy chunk that failed to load as `vite:preloadError` on window. */
export function reloadOnMissingChunks() {
  window.addEventListener('vite:preloadError', () => {
    reloadForNewVersion(globalThis.sessionStorage, Date.now(), () => window.location.reload());
  });
}
