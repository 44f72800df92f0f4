import { describe, expect, it } from 'vitest';
import { shapeOf } from './statistics-shape';

describe('workbench statistics shapes', () => {
  it('reads a number, named numbers and a list of rows, and nothing else', () => {
    expect(shapeOf(12)).toEqual({ kind: 'numbers', items: [{ label: '', value: 12 }] });
    expect(shapeOf({ total: 3, today: 1, name: 'x' })).toEqual({
      kind: 'numbers',
      items: [
        { label: 'total', value: 3 },
        { label: 'today', value: 1 },
      ],
    });
    const rows = [{ month: '2024-01', count: 2 }];
    expect(shapeOf({ items: rows })).toEqual({ kind: 'series', rows, category: 'month', value: 'count' });
    expect(shapeOf(rows)).toMatchObject({ kind: 'series', category: 'month', value: 'count' });
    expect(shapeOf(null)).toBeNull();
    expect(shapeOf('text')).toBeNull();
    expect(shapeOf([])).toBeNull();
  });
});
