import { useEffect, useState } from 'react';

/** Whether a CSS media query matches, following changes (a resize, a system setting). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => globalThis.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const list = globalThis.matchMedia?.(query);
    if (!list) return;
    const on = () => setMatches(list.matches);
    on();
    list.addEventListener('change', on);
    return () => list.removeEventListener('change', on);
  }, [query]);
  return matches;
}

/**
 * Whether the person asked their system for less motion (WCAG 2.3.3): antd then opens menus,
 * dialogs and drawers without animating them.
 */
export const useReducedMotion = () => useMediaQuery('(prefers-reduced-motion: reduce)');
