/** Reason given to requests cancelled by a page change (spec 000 sections 4 and 8). */
export const PAGE_CHANGE_REASON = 'Terminate previous page request';

/** The cancel registry's key: method plus path without query (spec 000 section 7). */
export function cancelKey(method: string | undefined, url: string | undefined): string {
  const path = (url ?? '').split(/[?#]/)[0] ?? '';
  return `${(method ?? 'get').toUpperCase()} ${path}`;
}

/**
 * Pending requests by key. Several requests may share a key (every envelope call posts to the
 * same path), so each key holds a set of controllers.
 */
export class CancelRegistry {
  private readonly pending = new Map<string, Set<AbortController>>();

  register(key: string, controller: AbortController): () => void {
    let set = this.pending.get(key);
    if (!set) {
      set = new Set();
      this.pending.set(key, set);
    }
    set.add(controller);
    return () => {
      set.delete(controller);
      if (set.size === 0 && this.pending.get(key) === set) this.pending.delete(key);
    };
  }

  /** Cancels every pending request; returns how many were cancelled. */
  cancelAll(reason = PAGE_CHANGE_REASON): number {
    let n = 0;
    for (const set of this.pending.values()) {
      for (const c of set) {
        c.abort(reason);
        n += 1;
      }
    }
    this.pending.clear();
    return n;
  }

  cancel(key: string, reason = PAGE_CHANGE_REASON): number {
    const set = this.pending.get(key);
    if (!set) return 0;
    for (const c of set) c.abort(reason);
    this.pending.delete(key);
    return set.size;
  }

  size() {
    let n = 0;
    for (const set of this.pending.values()) n += set.size;
    return n;
  }
}
