import { describe, expect, it } from 'vitest';
import { AXES, buildVitalChart, LINE_WIDTH, MARKER_RADIUS, ROW, yOf, zoomStep } from './model';

const at = (day: number, hour: number) => new Date(Date.UTC(2024, 2, day, hour - 8)).toISOString();

describe('vital-sign chart model', () => {
  it('uses the spec constants: SpO2 0-110, temperature 20-42, radius 4, width 2, rows 16 apart', () => {
    expect([AXES.spo2.min, AXES.spo2.max]).toEqual([0, 110]);
    expect([AXES.temperature.min, AXES.temperature.max]).toEqual([20, 42]);
    expect([MARKER_RADIUS, LINE_WIDTH, ROW]).toEqual([4, 2, 16]);
    const m = buildVitalChart([]);
    expect(m.guideLines[1]! - m.guideLines[0]!).toBe(16);
    expect(yOf('temperature', 42)).toBe(0);
    expect(yOf('spo2', 0)).toBe(m.height);
  });

  it('places points in 4-hour slots of day columns and breaks the temperature line at 不升', () => {
    const m = buildVitalChart([
      { _id: 1, Item_name: '体温', value: '37.0', Record_dt: at(1, 6) },
      { _id: 2, Item_name: '体温', value: '不升', Record_dt: at(1, 10) },
      { _id: 3, Item_name: '体温', value: '38.2', Record_dt: at(2, 14) },
      { _id: 4, Item_name: '脉搏', value: '88', Record_dt: at(1, 6) },
    ]);
    expect(m.days.map((d) => d.date)).toEqual(['2024-03-01', '2024-03-02']);
    expect(m.series.temperature).toHaveLength(2);
    expect(m.series.temperature[0]![0]!.x).toBe(16 + 8);
    expect(m.series.temperature[1]![0]!.x).toBe(6 * 16 + 3 * 16 + 8);
    expect(m.notRaised).toHaveLength(1);
    expect(m.series.pulse[0]![0]!.y).toBe(yOf('pulse', 88));
  });

  it('draws ventilator on/off as marks with the span between, and cuts long event text', () => {
    const long = '患者外出请假回家处理私事预计明日上午八点前返回病房';
    const m = buildVitalChart([
      { _id: 1, Item_name: '事件', value: '开呼吸机', Record_dt: at(1, 10) },
      { _id: 2, Item_name: '事件', value: '关呼吸机', Record_dt: at(2, 10) },
      { _id: 3, Item_name: '事件', value: long, Record_dt: at(2, 14) },
      { _id: 4, Item_name: '事件', value: '入院', Record_dt: at(1, 9) },
    ]);
    expect(m.ventilator.map((v) => v.on)).toEqual([true, false]);
    expect(m.ventilation).toEqual([{ from: m.ventilator[0]!.x, to: m.ventilator[1]!.x }]);
    expect(m.events.map((e) => e.text)).toEqual(['入院', `${Array.from(long).slice(0, 17).join('')}...`]);
  });

  it('zooms 1.05 in and 0.95 out per wheel step', () => {
    expect(zoomStep(1, -100)).toBeCloseTo(1.05);
    expect(zoomStep(1, 100)).toBeCloseTo(0.95);
    expect(zoomStep(4, -1)).toBe(4);
  });
});
