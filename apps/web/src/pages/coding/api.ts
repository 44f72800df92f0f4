import type {
  CodedRow,
  CodingAgreement,
  CodingBulkResult,
  CodingDecision,
  CodingItem,
  CodingItemStatus,
  CodingKind,
  CodingMapping,
  CodingMarker,
  CodingReview,
  CodingReviewBatch,
  CodingReviewBatchCreate,
  CodingTask,
  CodingTaskCreate,
  CodingVerdictInput,
  CreatedId,
  PageOf,
} from '@crdp/core';
import { rest } from '../../api/client';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';

/** Calls of the coding and coding-QC screens (server: apps/server/src/coding/routes.ts). */
type Paging = { page: number; size: number };

const C = 'coding';
export const codingApi = {
  tasks: (kind: CodingKind, p: Paging) => rest<PageOf<CodingTask>>({ url: `${C}/${kind}/tasks`, params: p }),
  task: (kind: CodingKind, taskId: number) =>
    rest<CodingTask>({ url: `${C}/${kind}/task`, params: { taskId } }),
  createTask: (kind: CodingKind, body: CodingTaskCreate) =>
    rest<CodingTask>({ url: `${C}/${kind}/tasks`, method: 'POST', data: body, silent: true }),
  deleteTask: (kind: CodingKind, taskId: number) =>
    rest<null>({ url: `${C}/${kind}/tasks/delete`, method: 'POST', data: { taskId } }),
  items: (
    kind: CodingKind,
    taskId: number,
    p: Paging & { status?: CodingItemStatus | undefined; q?: string },
  ) =>
    rest<PageOf<CodingItem>>({
      url: `${C}/${kind}/items`,
      params: {
        taskId,
        page: p.page,
        size: p.size,
        ...(p.status ? { status: p.status } : {}),
        ...(p.q ? { q: p.q } : {}),
      },
    }),
  decide: (kind: CodingKind, body: CodingDecision) =>
    rest<CodingItem>({ url: `${C}/${kind}/items/decide`, method: 'POST', data: body }),
  bulkAccept: (kind: CodingKind, taskId: number, minScore: number) =>
    rest<CodingBulkResult>({
      url: `${C}/${kind}/items/bulk-accept`,
      method: 'POST',
      data: { taskId, minScore },
    }),
  mappings: (kind: CodingKind, p: Paging & { q?: string }) =>
    rest<PageOf<CodingMapping>>({ url: `${C}/${kind}/mappings`, params: p }),
  rows: (kind: CodingKind, p: Paging) => rest<PageOf<CodedRow>>({ url: `${C}/${kind}/rows`, params: p }),
  batches: (p: Paging) => rest<PageOf<CodingReviewBatch>>({ url: `${C}/qc/batches`, params: p }),
  createBatch: (body: CodingReviewBatchCreate) =>
    rest<CreatedId>({ url: `${C}/qc/batches`, method: 'POST', data: body, silent: true }),
  agreement: () => rest<CodingAgreement[]>({ url: `${C}/qc/agreement` }),
  reviews: (p: Paging & { batchId?: number | undefined }) =>
    rest<PageOf<CodingReview>>({
      url: `${C}/qc/reviews`,
      params: { page: p.page, size: p.size, ...(p.batchId ? { batchId: p.batchId } : {}) },
    }),
  verdict: (body: CodingVerdictInput) =>
    rest<CodingReview>({ url: `${C}/qc/reviews/verdict`, method: 'POST', data: body, silent: true }),
  markers: (p: Paging) => rest<PageOf<CodingMarker>>({ url: `${C}/qc/markers`, params: p }),
  confirmMarker: (mappingId: number) =>
    rest<null>({ url: `${C}/qc/markers/confirm`, method: 'POST', data: { mappingId } }),
};

export function useCan() {
  const { access } = useSession();
  return (apiId: string) => !!access && hasApiId(access, apiId);
}
