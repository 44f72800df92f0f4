import { describe, expect, it, vi } from 'vitest';
import type { PatientEntry, PatientListRequest, PatientPage } from './api';
import { nextPatient } from './nextPatient';

const entry = (id: number): PatientEntry => ({
  id,
  patient_id: 100 + id,
  record_id: 200 + id,
  Patient_name: `患者${id}`,
  Filing_date: '2024-01-05T00:00:00Z',
  mrn: `M${id}`,
  gender: 1,
  birth_date: null,
  first_visit: '2024-01-05',
  reason: [],
  completeness: null,
});
const request = (page: number, size = 2): PatientListRequest => ({
  library_id: 7,
  page,
  size,
  filters: { name: '患' },
});
const pageOf = (ids: number[], total: number, page = 1, size = 2): PatientPage => ({
  total,
  page,
  size,
  items: ids.map(entry),
});

describe('nextPatient', () => {
  it('answers empty (暂无数据) when the list has no patients', async () => {
    const load = vi.fn();
    expect(await nextPatient(request(1), pageOf([], 0), 0, load)).toEqual({ kind: 'empty' });
    expect(load).not.toHaveBeenCalled();
  });

  it('moves to the following entry of the same page without a call', async () => {
    const load = vi.fn();
    const step = await nextPatient(request(1), pageOf([1, 2], 5), 0, load);
    expect(step).toMatchObject({ kind: 'entry', index: 1, entry: { id: 2 } });
    expect(load).not.toHaveBeenCalled();
  });

  it('loads the next page with the same filters when the page is done', async () => {
    const load = vi.fn(async (r: PatientListRequest) => pageOf([3, 4], 5, r.page));
    const step = await nextPatient(request(1), pageOf([1, 2], 5), 1, load);
    expect(load).toHaveBeenCalledWith({ library_id: 7, page: 2, size: 2, filters: { name: '患' } });
    expect(step).toMatchObject({ kind: 'entry', index: 0, entry: { id: 3 }, request: { page: 2 } });
  });

  it('answers last (已经是最后一位了) on the last entry of the last page', async () => {
    const load = vi.fn();
    expect(await nextPatient(request(3), pageOf([5], 5, 3), 0, load)).toEqual({ kind: 'last' });
    // A full last page: page * size reaches the total.
    expect(await nextPatient(request(2), pageOf([3, 4], 4, 2), 1, load)).toEqual({ kind: 'last' });
    expect(load).not.toHaveBeenCalled();
  });

  it('answers last when the next page came back empty (patients removed meanwhile)', async () => {
    const load = vi.fn(async () => pageOf([], 2, 2));
    expect(await nextPatient(request(1), pageOf([1, 2], 3), 1, load)).toEqual({ kind: 'last' });
  });
});
