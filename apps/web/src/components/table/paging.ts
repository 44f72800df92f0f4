import type { TablePaginationConfig } from 'antd';

/** The page a paged list shows: its number from 1 and its size. */
export type Paging = { current: number; size: number };

/** A table's pagination for the page it shows, the total the server counted, and the page picked next. */
export function pagingOf(page: Paging, total: number | undefined, onChange: (next: Paging) => void) {
  return {
    current: page.current,
    pageSize: page.size,
    total: total ?? 0,
    onChange: (current: number, size: number) => onChange({ current, size }),
  } satisfies TablePaginationConfig;
}

/** The page a ProTable asks for, as the server's `page` (from 1) and `size` (`size` until it says). */
export const proPage = (p: { current?: number; pageSize?: number }, size = 20) => ({
  page: p.current ?? 1,
  size: p.pageSize ?? size,
});
