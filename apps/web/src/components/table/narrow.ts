import { useMediaQuery } from '../media-query';

/** Widths up to this are a phone: list pages keep their key columns in sight (antd's xs). */
export const NARROW_MAX_WIDTH = 575;

/** Whether the screen is a phone's, following resizes. */
export function useNarrow(): boolean {
  return useMediaQuery(`(max-width: ${NARROW_MAX_WIDTH}px)`);
}

/**
 * The list pages' shared narrow-screen layout, spread into a ProTable: on a phone the table
 * scrolls sideways inside itself (never the page) with its first column, the row's name, fixed
 * at the left (styles.css, .crdp-narrow-table). Nothing changes on a wide screen.
 */
export function useNarrowTable(): { scroll?: { x: 'max-content' }; className?: string } {
  const narrow = useNarrow();
  return narrow ? { scroll: { x: 'max-content' }, className: 'crdp-narrow-table' } : {};
}
