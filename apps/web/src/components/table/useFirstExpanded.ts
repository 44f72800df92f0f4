import type { Key } from 'react';
import { useState } from 'react';

/**
 * Which rows of a list are open: the first one until the person opens or closes a row, then
 * theirs. `open(id)` opens only that row (a task just started).
 */
export function useFirstExpanded(items: { id: number }[]) {
  const [expanded, setExpanded] = useState<number[] | null>(null);
  const expandedRowKeys = expanded ?? (items[0] ? [items[0].id] : []);
  return {
    expandedRowKeys,
    onExpandedRowsChange: (keys: readonly Key[]) => setExpanded(keys as number[]),
    open: (id: number) => setExpanded([id]),
  };
}
