import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, patchOf, timestamp, timestampOrNull } from './common.js';

/**
 * Data factory directory (数据工厂目录, `/api/v0.1/data-factory`, DataLakeDirectoryDataFactory): the
 * catalogue of the platform's derived datasets — T0 event results, disease-library cohorts,
 * research datasets, saved reports — as opposed to the raw CDR tables of 目录浏览. Datasets are
 * discovered from what the app has made; people curate an entry (description, tags, steward)
 * over one. Each shows its computed facts: rows, patients covered, fields with fill rates and
 * when it was last refreshed. Server: apps/server/src/data-factory.
 */

/** The kinds of derived dataset the directory discovers (labels: `dataFactoryKind`). */
export const DATA_FACTORY_KINDS = ['t0Event', 'diseaseLibrary', 'researchDataset', 'report'] as const;
export type DataFactoryKind = (typeof DATA_FACTORY_KINDS)[number];

export const DATA_FACTORY_TAG_MAX = 20;
export const DATA_FACTORY_DESCRIPTION_MAX = 500;

const tag = safeText(DATA_FACTORY_TAG_MAX, { min: 1, required: 'must not be blank' });

/** A dataset, as its kind and the id of the object that makes it (`t0Event:12`). */
export const dataFactoryDatasetParams = z.object({
  kind: z.enum(DATA_FACTORY_KINDS),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});
export type DataFactoryDatasetParams = z.infer<typeof dataFactoryDatasetParams>;

/** The curation people add over a discovered dataset. */
export const dataFactoryCuration = z
  .object({
    description: safeText(DATA_FACTORY_DESCRIPTION_MAX).default(''),
    tags: z
      .array(tag)
      .max(10)
      .default([])
      .refine((t) => new Set(t).size === t.length, { message: 'tags must not repeat' }),
    steward: safeText(50).default(''),
  })
  .strict();
export const dataFactoryEntryCreate = dataFactoryCuration
  .extend({ kind: z.enum(DATA_FACTORY_KINDS), sourceId: z.number().int().positive().max(2_147_483_647) })
  .strict();
export type DataFactoryEntryCreate = z.input<typeof dataFactoryEntryCreate>;
export const dataFactoryEntryPatch = patchOf(dataFactoryCuration);
export type DataFactoryEntryPatch = z.input<typeof dataFactoryEntryPatch>;

export const dataFactoryField = z.object({
  key: z.string(),
  /** The field's own words where it has them (a research dataset's column label). */
  label: z.string(),
  kind: z.enum(['id', 'text', 'number', 'date', 'json']),
  filled: z.number().int(),
});
export type DataFactoryField = z.infer<typeof dataFactoryField>;

export const dataFactoryDataset = z.object({
  kind: z.enum(DATA_FACTORY_KINDS),
  sourceId: z.number().int(),
  name: z.string(),
  /** Who made the object the dataset comes from. */
  owner: z.string().nullable(),
  /** The derived table or feature it lives in (t0_patients, research_datasets.rows …). */
  source: z.string(),
  /** Rows: null when the dataset has not been made yet (a T0 never calculated, a report never run). */
  rows: z.number().int().nullable(),
  patients: z.number().int().nullable(),
  refreshedAt: timestampOrNull,
  /** The curation, when someone has added one. */
  entry: z
    .object({
      id: z.number().int(),
      description: z.string(),
      tags: z.array(z.string()),
      steward: z.string(),
      updatedAt: timestamp,
    })
    .nullable(),
});
export type DataFactoryDataset = z.infer<typeof dataFactoryDataset>;
export const dataFactoryList = itemList(dataFactoryDataset);
export type DataFactoryList = z.infer<typeof dataFactoryList>;

/** One dataset with its fields and their fill rates. */
export const dataFactoryDetail = dataFactoryDataset.extend({ fields: z.array(dataFactoryField) });
export type DataFactoryDetail = z.infer<typeof dataFactoryDetail>;

export const dataFactoryEntryParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** A curation entry as stored: the dataset it is over and what people wrote. */
export const dataFactoryEntry = z.object({
  id: z.number().int(),
  kind: z.enum(DATA_FACTORY_KINDS),
  sourceId: z.number().int(),
  description: z.string(),
  tags: z.array(z.string()),
  steward: z.string(),
  updatedAt: timestamp,
});
export type DataFactoryEntry = z.infer<typeof dataFactoryEntry>;

export const dataFactoryListQuery = z.object({
  kind: z.enum(DATA_FACTORY_KINDS).optional(),
  keyword: safeText(60).optional(),
});
export type DataFactoryListQuery = z.input<typeof dataFactoryListQuery>;
