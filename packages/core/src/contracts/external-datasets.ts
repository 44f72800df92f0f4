import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, timestamp } from './common.js';
import {
  researchAnalysisParams,
  researchDatasetColumn,
  researchDatasetRow,
  researchTaskResult,
} from './research.js';

/**
 * Analysis on an external dataset (MIMIC 分析, `/scientific-research-subject/analysis-mining/mimic`,
 * `/api/v0.1/external-datasets`): a CSV table imported as an analysis source (a MIMIC-like ICU
 * stay table is recognised by its columns) and analysed with the research analysis methods.
 * Server: apps/server/src/research/external.
 */

export const EXTERNAL_LAYOUTS = ['mimic_icu', 'generic'] as const;
export type ExternalLayout = (typeof EXTERNAL_LAYOUTS)[number];
/** The largest CSV accepted, in characters. */
export const EXTERNAL_CSV_MAX = 5_000_000;
export const EXTERNAL_ROWS_MAX = 50_000;

export const externalDatasetParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const externalDatasetImportBody = z.object({
  name: safeText(60, { min: 1, required: 'must not be blank' }),
  /** The CSV text, header first (UTF-8, comma separated, RFC 4180 quotes). */
  csv: z.string().min(1, 'must not be empty').max(EXTERNAL_CSV_MAX, 'at most 5,000,000 characters'),
});
export type ExternalDatasetImportBody = z.input<typeof externalDatasetImportBody>;

export const externalDataset = z.object({
  id: z.number().int(),
  name: z.string(),
  layout: z.enum(EXTERNAL_LAYOUTS),
  columns: z.array(researchDatasetColumn),
  rowCount: z.number().int(),
  createdAt: timestamp,
});
export type ExternalDataset = z.infer<typeof externalDataset>;
export const externalDatasetList = itemList(externalDataset);
export type ExternalDatasetList = z.infer<typeof externalDatasetList>;

/** The first rows of a dataset, for a look. */
export const externalDatasetPreview = z.object({ rows: z.array(researchDatasetRow) });
export type ExternalDatasetPreview = z.infer<typeof externalDatasetPreview>;

export const externalAnalysisBody = z.object({ params: researchAnalysisParams });
export type ExternalAnalysisBody = z.input<typeof externalAnalysisBody>;
export const externalAnalysisQueued = z.object({ task_id: z.number().int() });
export type ExternalAnalysisQueued = z.infer<typeof externalAnalysisQueued>;

/** The analyses of a dataset, newest first (at most 20), each as the research task result. */
export const externalAnalysisList = itemList(researchTaskResult);
export type ExternalAnalysisList = z.infer<typeof externalAnalysisList>;
