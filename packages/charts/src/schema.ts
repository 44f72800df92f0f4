import { z } from 'zod';
import { CHANNELS, CHART_SUBTYPES } from './subtypes.js';

export const AGGREGATES = ['sum', 'average', 'count', 'distinctCount', 'min', 'max', 'median'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/**
 * Sort axes of spec 001: `value` orders categories by the aggregated measure; `category` by
 * the category's text (Chinese collation, numbers inside text in numeric order);
 * `categoryValue` by the category's own typed value (numbers as numbers, dates as dates).
 */
export const SORT_AXES = ['value', 'category', 'categoryValue'] as const;
export type SortAxis = (typeof SORT_AXES)[number];

export const CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'notEmpty'] as const;

export const numberFormatSchema = z.object({
  prefix: z.string().max(20).optional(),
  suffix: z.string().max(20).optional(),
  grouping: z.boolean().optional(),
  decimals: z.number().int().min(0).max(10).optional(),
  multiplier: z.number().finite().optional(),
});

export const sortSchema = z.object({ axis: z.enum(SORT_AXES), order: z.enum(['asc', 'desc']) });

export const channelFieldSchema = z.object({
  /** Column name in the rows; '*' with aggregate count counts rows. */
  field: z.string().min(1),
  labelOverride: z.string().optional(),
  aggregate: z.enum(AGGREGATES).optional(),
  sort: sortSchema.optional(),
  format: numberFormatSchema.optional(),
  /** Venn `conditions` only: the set is the rows where `field op value` holds. */
  condition: z.object({ op: z.enum(CONDITION_OPS), value: z.unknown().optional() }).optional(),
});

export const chartSpecSchema = z.object({
  subtype: z.enum(CHART_SUBTYPES),
  title: z.string().optional(),
  /** Rich text body (HTML or plain text), shown instead of data when present. */
  content: z.string().optional(),
  channels: z.partialRecord(z.enum(CHANNELS), z.array(channelFieldSchema)).default({}),
  options: z
    .object({
      locale: z.enum(['zh-CN', 'en-US']).optional(),
      /** Map name registered with echarts.registerMap by the app. */
      mapName: z.string().optional(),
      /** Venn layout size in pixels; the drawing is centred in the canvas. */
      width: z.number().positive().optional(),
      height: z.number().positive().optional(),
      /** Word cloud: how many words at most, the biggest first. */
      maxWords: z.number().int().positive().optional(),
    })
    .optional(),
});

export type NumberFormatSpec = z.infer<typeof numberFormatSchema>;
export type ChartSort = z.infer<typeof sortSchema>;
export type ChannelField = z.infer<typeof channelFieldSchema>;
export type ChartSpec = z.input<typeof chartSpecSchema>;
export type ChartRow = Record<string, unknown>;
