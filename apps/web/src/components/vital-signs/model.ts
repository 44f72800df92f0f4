import { shortenEventText } from '@crdp/core';

/**
 * The bedside vital-sign chart (体温单) as geometry, without React: days in columns of six
 * 4-hour slots, three value axes over the same rows, events as text, ventilator and 不升 marks.
 * Spec 001 sections 3 and 9: SpO2 0-110, temperature 20-42, markers radius 4, lines width 2,
 * guide lines 16 units apart, event text cut to 17 characters plus '...' past 20.
 */
export interface VitalPoint {
  _id: number | string;
  Item_name: string;
  value: string;
  Item_unit?: string;
  Record_dt: string;
}

export interface ChartSettings {
  /** Target temperature band (℃). */
  targetStart: number;
  targetEnd: number;
  /** Rows between the axes' ends; each row is ROW units high. */
  rows: number;
  /** Hours of the slots of a day. */
  slotHours: number[];
  /** Time zone offset of the ward, minutes (Beijing +480). */
  utcOffsetMinutes: number;
}

export const DEFAULT_SETTINGS: ChartSettings = {
  targetStart: 36,
  targetEnd: 37.3,
  rows: 22,
  slotHours: [2, 6, 10, 14, 18, 22],
  utcOffsetMinutes: 480,
};

export const ROW = 16;
export const SLOT_WIDTH = 16;
export const MARKER_RADIUS = 4;
export const LINE_WIDTH = 2;
export const AXES = {
  spo2: { min: 0, max: 110, label: 'SpO2 %' },
  temperature: { min: 20, max: 42, label: '℃' },
  pulse: { min: 0, max: 220, label: '次/分' },
} as const;
export type SeriesKey = keyof typeof AXES;

const NAMES: Record<string, SeriesKey> = {
  体温: 'temperature',
  脉搏: 'pulse',
  心率: 'pulse',
  血氧饱和度: 'spo2',
  SpO2: 'spo2',
};
export const VENTILATOR_ON = '开呼吸机';
export const VENTILATOR_OFF = '关呼吸机';
export const NOT_RAISED = '不升';

export interface Marker {
  x: number;
  y: number;
  value: number;
  at: string;
}
export interface ChartModel {
  width: number;
  height: number;
  days: Array<{ date: string; x: number }>;
  slots: Array<{ hour: number; x: number }>;
  series: Record<SeriesKey, Marker[][]>;
  /** Events in the same slot stand side by side: `lane` 0, 1, 2... */
  events: Array<{ x: number; text: string; full: string; at: string; lane: number }>;
  ventilator: Array<{ x: number; on: boolean; at: string }>;
  /** Spans with the ventilator on, for a bar under the grid. */
  ventilation: Array<{ from: number; to: number }>;
  notRaised: Array<{ x: number; at: string }>;
  targetBand: { y1: number; y2: number };
  guideLines: number[];
}

/** y of a value on an axis: the top of the grid is the axis' max, the bottom its min. */
export const yOf = (axis: SeriesKey, value: number, rows = DEFAULT_SETTINGS.rows) => {
  const a = AXES[axis];
  const clamped = Math.min(a.max, Math.max(a.min, value));
  return ((a.max - clamped) / (a.max - a.min)) * rows * ROW;
};

/** Lays out the points of one stay. */
export function buildVitalChart(
  points: VitalPoint[],
  settings: ChartSettings = DEFAULT_SETTINGS,
): ChartModel {
  const off = settings.utcOffsetMinutes * 60_000;
  const local = (iso: string) => new Date(Date.parse(iso) + off);
  const dayKey = (d: Date) => d.toISOString().slice(0, 10);
  const sorted = [...points].sort((a, b) => Date.parse(a.Record_dt) - Date.parse(b.Record_dt));
  const dayList = [...new Set(sorted.map((p) => dayKey(local(p.Record_dt))))];
  if (!dayList.length) dayList.push(dayKey(local(new Date().toISOString())));
  // Fill gaps so every calendar day of the stay has its column.
  const days: string[] = [];
  for (let d = Date.parse(dayList[0]!); d <= Date.parse(dayList[dayList.length - 1]!); d += 86_400_000) {
    days.push(new Date(d).toISOString().slice(0, 10));
  }
  const perDay = settings.slotHours.length;
  const dayWidth = perDay * SLOT_WIDTH;
  const height = settings.rows * ROW;
  const xOf = (iso: string) => {
    const t = local(iso);
    const di = days.indexOf(dayKey(t));
    const hours = t.getUTCHours() + t.getUTCMinutes() / 60;
    // The slot whose 4-hour window holds the time; its centre is the x.
    let slot = settings.slotHours.findIndex((h) => hours < h + 2);
    if (slot < 0) slot = perDay - 1;
    return di * dayWidth + slot * SLOT_WIDTH + SLOT_WIDTH / 2;
  };

  const series: ChartModel['series'] = { temperature: [[]], pulse: [[]], spo2: [[]] };
  const events: ChartModel['events'] = [];
  const ventilator: ChartModel['ventilator'] = [];
  const notRaised: ChartModel['notRaised'] = [];
  for (const p of sorted) {
    const key = NAMES[p.Item_name];
    const v = p.value.trim();
    if (v === NOT_RAISED) {
      // 不升: the thermometer did not rise; drawn as its own mark and the temperature line breaks.
      notRaised.push({ x: xOf(p.Record_dt), at: p.Record_dt });
      series.temperature.push([]);
      continue;
    }
    if (v === VENTILATOR_ON || v === VENTILATOR_OFF) {
      ventilator.push({ x: xOf(p.Record_dt), on: v === VENTILATOR_ON, at: p.Record_dt });
      continue;
    }
    if (key) {
      const n = Number(v);
      if (!Number.isFinite(n)) continue;
      const line = series[key];
      line[line.length - 1]!.push({
        x: xOf(p.Record_dt),
        y: yOf(key, n, settings.rows),
        value: n,
        at: p.Record_dt,
      });
      continue;
    }
    const x = xOf(p.Record_dt);
    const lane = events.filter((e) => e.x === x).length;
    events.push({ x, text: shortenEventText(v), full: v, at: p.Record_dt, lane });
  }
  for (const k of Object.keys(series) as SeriesKey[]) series[k] = series[k].filter((l) => l.length);

  const ventilation: ChartModel['ventilation'] = [];
  let onAt: number | null = null;
  for (const m of ventilator) {
    if (m.on && onAt === null) onAt = m.x;
    else if (!m.on && onAt !== null) {
      ventilation.push({ from: onAt, to: m.x });
      onAt = null;
    }
  }
  if (onAt !== null) ventilation.push({ from: onAt, to: days.length * dayWidth });

  const y1 = yOf('temperature', settings.targetEnd, settings.rows);
  const y2 = yOf('temperature', settings.targetStart, settings.rows);
  return {
    width: days.length * dayWidth,
    height,
    days: days.map((date, i) => ({ date, x: i * dayWidth })),
    slots: days.flatMap((_, i) =>
      settings.slotHours.map((hour, j) => ({ hour, x: i * dayWidth + j * SLOT_WIDTH })),
    ),
    series,
    events,
    ventilator,
    ventilation,
    notRaised,
    targetBand: { y1, y2 },
    guideLines: Array.from({ length: settings.rows + 1 }, (_, i) => i * ROW),
  };
}

/** Wheel zoom (spec 001 section 9): 1.05 per step in, 0.95 out, kept between 0.5 and 4. */
export function zoomStep(scale: number, deltaY: number) {
  const next = deltaY < 0 ? scale * 1.05 : scale * 0.95;
  return Math.min(4, Math.max(0.5, next));
}
