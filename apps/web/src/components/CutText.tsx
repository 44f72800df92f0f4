import { truncateText } from '@crdp/core';
import { Grid, Tooltip } from 'antd';

/**
 * Width of a text cell in a table, counted as spec 001's truncation counts it (a full-width
 * character, e.g. Chinese, takes 2): 40 is 20 Chinese characters or 40 Latin letters.
 */
export const CELL_WIDTH = 40;
/** On a phone (below antd's `md`) a cell holds at most this width: 12 Chinese characters. */
export const NARROW_CELL_WIDTH = 24;

/**
 * A text cut by the spec's truncation rule (`truncateText` of @crdp/core, '...' at the end),
 * whole in a tooltip on hover. Short text is shown as it is, without a tooltip. Every table
 * column that shortens text uses this, so Chinese and Latin text are cut alike; on a phone the
 * limit is smaller, so a row needs less sideways scrolling.
 */
export function CutText({ text, limit = CELL_WIDTH }: { text: unknown; limit?: number }) {
  const narrow = Grid.useBreakpoint().md === false;
  const value = text === null || text === undefined ? '' : String(text);
  const cut = truncateText(value, narrow ? Math.min(limit, NARROW_CELL_WIDTH) : limit);
  if (cut === value) return <>{value}</>;
  return (
    <Tooltip title={value}>
      <span data-cut-text="">{cut}</span>
    </Tooltip>
  );
}

/** A table column's `render` for antd Table (value first): `render: cutCell()`. */
export const cutCell =
  (limit = CELL_WIDTH) =>
  (value: unknown) => <CutText text={value} limit={limit} />;
