import type { PatientEntry, PatientListRequest, PatientPage } from './api';

/**
 * The next-patient button (spec 000 section 4, spec 001 section 4): the following entry of the
 * current page, or the first of the next page when the page is done. 'empty' when the list has
 * no data (暂无数据), 'last' when no next entry exists (已经是最后一位了).
 */
export type NextStep =
  | { kind: 'empty' }
  | { kind: 'last' }
  | { kind: 'entry'; entry: PatientEntry; request: PatientListRequest; page: PatientPage; index: number };

export async function nextPatient(
  request: PatientListRequest,
  page: PatientPage,
  index: number,
  load: (r: PatientListRequest) => Promise<PatientPage>,
): Promise<NextStep> {
  if (!page.total || !page.items.length) return { kind: 'empty' };
  if (index + 1 < page.items.length)
    return { kind: 'entry', entry: page.items[index + 1]!, request, page, index: index + 1 };
  if (request.page * request.size >= page.total) return { kind: 'last' };
  const nextRequest = { ...request, page: request.page + 1 };
  const next = await load(nextRequest);
  if (!next.items.length) return { kind: 'last' };
  return { kind: 'entry', entry: next.items[0]!, request: nextRequest, page: next, index: 0 };
}
