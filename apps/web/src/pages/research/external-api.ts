import type {
  ExternalAnalysisList,
  ExternalAnalysisQueued,
  ExternalDataset,
  ExternalDatasetImportBody,
  ExternalDatasetList,
  ExternalDatasetPreview,
  ResearchAnalysisParams,
} from '@crdp/core';
import { rest } from '../../api/client';

/** MIMIC 分析: external CSV datasets and their analyses. */
export const externalApi = {
  list: () => rest<ExternalDatasetList>({ url: 'external-datasets' }),
  import: (b: ExternalDatasetImportBody) =>
    rest<ExternalDataset>({ url: 'external-datasets', method: 'POST', data: b, silent: true, timeout: 0 }),
  preview: (id: number) => rest<ExternalDatasetPreview>({ url: `external-datasets/${id}/preview` }),
  remove: (id: number) => rest<true>({ url: `external-datasets/${id}`, method: 'DELETE' }),
  analyse: (id: number, params: ResearchAnalysisParams) =>
    rest<ExternalAnalysisQueued>({
      url: `external-datasets/${id}/analyses`,
      method: 'POST',
      data: { params },
    }),
  analyses: (id: number) => rest<ExternalAnalysisList>({ url: `external-datasets/${id}/analyses` }),
};
