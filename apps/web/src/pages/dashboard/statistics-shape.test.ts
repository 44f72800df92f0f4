import { describe, expect, it } from 'vitest';
import { shapeOf } from './statistics-shape';

describe('workbench statistics shapes', () => {
  it('reads a number, named numbers and a list of rows, and nothing else', () => {
    expect(shapeOf(12)).toEqual({ numbers: [{ label: '', value: 12 }], series: null });
    const tables = [{ table: 'patients', count: 2, bySource: {} }];
    expect(shapeOf({ total: 2, tables })).toEqual({
      numbers: [{ label: 'total', value: 2 }],
      series: { rows: tables, category: 'table', value: 'count' },
    });
    const libraries = [{ id: 7, name: '肝病库', patients: 3 }];
    expect(shapeOf({ libraries: 1, byLibrary: libraries })?.series).toEqual({
      rows: libraries,
      category: 'name',
      value: 'patients',
    });
    expect(shapeOf([{ month: '2024-01', count: 2 }])).toMatchObject({
      numbers: [],
      series: { category: 'month' },
    });
    expect(shapeOf({ libraries: 0, byLibrary: [] })).toEqual({
      numbers: [{ label: 'libraries', value: 0 }],
      series: null,
    });
    // Topic types carry their code and their name: the axis shows the name, not 'crossSectional'.
    const types = [{ typeCode: 'crossSectional', name: '横断面研究', count: 1 }];
    expect(shapeOf(types)?.series?.category).toBe('name');
    expect(shapeOf(null)).toBeNull();
    expect(shapeOf('text')).toBeNull();
    expect(shapeOf([])).toBeNull();
  });
});
