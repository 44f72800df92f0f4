import { describe, expect, it } from 'vitest';
import { isUnderWay, JOB_POLL_MS, pollInterval } from './useJobPoll';

describe('job polling', () => {
  const job = (status: string) => ({ status });
  const jobUnderWay = (j: { status: string }) => isUnderWay(j.status);

  it('asks every second while a job is queued or running (a dataset: building)', () => {
    for (const s of ['queued', 'running', 'building'])
      expect(pollInterval({ status: 'success', data: job(s) }, jobUnderWay)).toBe(JOB_POLL_MS);
    expect(pollInterval({ status: 'success', data: job('running') }, jobUnderWay, 800)).toBe(800);
  });

  it('stops once the work is over, whatever way it ended', () => {
    for (const s of ['succeeded', 'failed', 'cancelled', 'ready', 'partial'])
      expect(pollInterval({ status: 'success', data: job(s) }, jobUnderWay)).toBe(false);
  });

  it('stops after a failed request (already shown) and before any answer', () => {
    expect(pollInterval({ status: 'error', data: job('running') }, jobUnderWay)).toBe(false);
    expect(pollInterval({ status: 'pending', data: undefined }, jobUnderWay)).toBe(false);
  });

  it('follows a list while any of its rows is under way', () => {
    const list = (...s: string[]) => ({ items: s.map(job) });
    const anyUnderWay = (l: { items: Array<{ status: string }> }) => l.items.some(jobUnderWay);
    expect(pollInterval({ status: 'success', data: list('succeeded', 'running') }, anyUnderWay)).toBe(
      JOB_POLL_MS,
    );
    expect(pollInterval({ status: 'success', data: list('succeeded', 'failed') }, anyUnderWay)).toBe(false);
    expect(isUnderWay(null)).toBe(false);
  });
});
