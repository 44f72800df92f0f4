import { describe, expect, it } from 'vitest';
import { reloadForNewVersion, UPGRADE_RELOAD_WINDOW_MS } from './upgrade';

const memoryStore = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('reloading for a new version when chunks are missing', () => {
  it('reloads once, then not again within the window, then again after it', () => {
    const store = memoryStore();
    let reloads = 0;
    const reload = () => {
      reloads++;
    };
    const t0 = 1_800_000_000_000;
    expect(reloadForNewVersion(store, t0, reload)).toBe(true);
    expect(reloads).toBe(1);
    // The reloaded page fails too (server down, not an upgrade): the error is shown, no loop.
    expect(reloadForNewVersion(store, t0 + 5_000, reload)).toBe(false);
    expect(reloadForNewVersion(store, t0 + UPGRADE_RELOAD_WINDOW_MS - 1, reload)).toBe(false);
    expect(reloads).toBe(1);
    // A later upgrade in the same tab.
    expect(reloadForNewVersion(store, t0 + UPGRADE_RELOAD_WINDOW_MS + 1, reload)).toBe(true);
    expect(reloads).toBe(2);
  });

  it('does not reload when it cannot remember having reloaded', () => {
    let reloads = 0;
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(reloadForNewVersion(broken, Date.now(), () => reloads++)).toBe(false);
    expect(reloads).toBe(0);
  });
});
