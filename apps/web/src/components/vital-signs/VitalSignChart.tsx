import { DownloadOutlined, PrinterOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Button, Empty, Space, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  AXES,
  buildVitalChart,
  type ChartSettings,
  DEFAULT_SETTINGS,
  LINE_WIDTH,
  MARKER_RADIUS,
  ROW,
  type SeriesKey,
  SLOT_WIDTH,
  type VitalPoint,
  zoomStep,
} from './model';

const COLORS: Record<SeriesKey, string> = { temperature: '#1d39c4', pulse: '#cf1322', spo2: '#389e0d' };
const AXIS_W = 44;
const HEAD = 64;
const EVENT_FONT = 10;
const FOOT = 36;

export interface VitalSignChartProps {
  points: VitalPoint[];
  settings?: ChartSettings;
  labels: {
    temperature: string;
    pulse: string;
    spo2: string;
    ventilator: string;
    notRaised: string;
    date: string;
    hour: string;
  };
  printTitle?: string;
  actionLabels: { zoomIn: string; zoomOut: string; print: string; png: string };
}

/**
 * The bedside vital-sign chart (体温单) in SVG: three axes on one grid (pulse, temperature,
 * SpO2), the target temperature band, events as vertical text, ventilator on/off and 不升
 * as their own marks. Wheel zooms; print and PNG export take the drawing as it is.
 */
export function VitalSignChart({
  points,
  settings = DEFAULT_SETTINGS,
  labels,
  actionLabels,
  printTitle,
}: VitalSignChartProps) {
  const m = useMemo(() => buildVitalChart(points, settings), [points, settings]);
  const [scale, setScale] = useState(1);
  const svgRef = useRef<SVGSVGElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // A native, non-passive listener: React's wheel handlers are passive and cannot stop the page scrolling.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box is rendered only once there are points
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      setScale((s) => zoomStep(s, e.deltaY));
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, [points.length]);
  if (!points.length) return <Empty />;

  // Room above the grid for the longest event, written top to bottom (at most 20 characters).
  const longest = Math.max(2, ...m.events.map((e) => Array.from(e.text).length));
  const gridTop = HEAD + longest * (EVENT_FONT + 1) + 12;
  const left = AXIS_W * 3;
  const width = left + m.width + 8;
  const height = gridTop + m.height + FOOT;

  const axisTicks = (key: SeriesKey, x: number) => {
    const a = AXES[key];
    const step = (a.max - a.min) / settings.rows;
    return Array.from({ length: settings.rows / 2 + 1 }, (_, i) => {
      const v = a.max - i * 2 * step;
      return (
        <text
          key={`${key}${v}`}
          x={x + AXIS_W - 4}
          y={gridTop + i * 2 * ROW + 4}
          textAnchor="end"
          fontSize={10}
          fill={COLORS[key]}
        >
          {Number.isInteger(v) ? v : v.toFixed(1)}
        </text>
      );
    });
  };

  const svgText = () => new XMLSerializer().serializeToString(svgRef.current!);
  const exportPng = () => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svgText()], { type: 'image/svg+xml;charset=utf-8' }));
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = width * 2;
      canvas.height = height * 2;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.scale(2, 2);
      ctx.drawImage(img, 0, 0, width, height);
      URL.revokeObjectURL(url);
      const a = document.createElement('a');
      a.href = canvas.toDataURL('image/png');
      a.download = `vital-signs-${m.days[0]?.date ?? ''}.png`;
      a.click();
    };
    img.src = url;
  };
  // The print document is built from nodes, never from HTML text: the title (it holds the
  // patient's name) is set as text and the drawing is a copy of the SVG element itself.
  const print = () => {
    const w = window.open('', '_blank');
    if (!w) return;
    const doc = w.document;
    doc.title = printTitle ?? '';
    doc.body.style.margin = '0';
    const heading = doc.createElement('h1');
    heading.style.cssText = 'font: 14px sans-serif; margin: 8px';
    heading.dataset.testid = 'print-title';
    heading.textContent = printTitle ?? '';
    doc.body.replaceChildren(heading, doc.importNode(svgRef.current!, true));
    w.focus();
    w.print();
  };

  return (
    <div>
      <Space style={{ marginBottom: 8 }}>
        <Tooltip title={actionLabels.zoomIn}>
          <Button size="small" icon={<ZoomInOutlined />} onClick={() => setScale((s) => zoomStep(s, -1))} />
        </Tooltip>
        <Tooltip title={actionLabels.zoomOut}>
          <Button size="small" icon={<ZoomOutOutlined />} onClick={() => setScale((s) => zoomStep(s, 1))} />
        </Tooltip>
        <Button size="small" icon={<PrinterOutlined />} onClick={print}>
          {actionLabels.print}
        </Button>
        <Button size="small" icon={<DownloadOutlined />} onClick={exportPng}>
          {actionLabels.png}
        </Button>
        <span style={{ color: '#999' }}>{Math.round(scale * 100)}%</span>
      </Space>
      <div
        style={{ overflow: 'auto', border: '1px solid #f0f0f0' }}
        ref={boxRef}
        data-testid="vital-sign-chart"
      >
        <svg
          ref={svgRef}
          xmlns="http://www.w3.org/2000/svg"
          width={width * scale}
          height={height * scale}
          viewBox={`0 0 ${width} ${height}`}
          fontFamily="sans-serif"
          role="img"
          aria-label={printTitle ?? labels.temperature}
        >
          <title>{printTitle ?? labels.temperature}</title>
          <rect x={0} y={0} width={width} height={height} fill="#fff" />
          {/* Header: dates and hours. */}
          <text x={4} y={20} fontSize={11}>
            {labels.date}
          </text>
          <text x={4} y={HEAD - 8} fontSize={11}>
            {labels.hour}
          </text>
          {m.days.map((d) => (
            <g key={d.date}>
              <text
                x={left + d.x + (settings.slotHours.length * SLOT_WIDTH) / 2}
                y={20}
                fontSize={11}
                textAnchor="middle"
              >
                {d.date.slice(5)}
              </text>
              <line
                x1={left + d.x}
                x2={left + d.x}
                y1={4}
                y2={gridTop + m.height}
                stroke="#595959"
                strokeWidth={1}
              />
            </g>
          ))}
          {m.slots.map((s) => (
            <g key={`${s.x}`}>
              <text
                x={left + s.x + SLOT_WIDTH / 2}
                y={HEAD - 8}
                fontSize={9}
                textAnchor="middle"
                fill={s.hour < 6 || s.hour > 18 ? '#cf1322' : '#262626'}
              >
                {s.hour}
              </text>
              <line
                x1={left + s.x}
                x2={left + s.x}
                y1={HEAD - 4}
                y2={gridTop + m.height}
                stroke="#e8e8e8"
                strokeWidth={0.5}
              />
            </g>
          ))}
          {/* Axes. */}
          {(['pulse', 'temperature', 'spo2'] as SeriesKey[]).map((k, i) => (
            <g key={k}>
              <text
                x={i * AXIS_W + AXIS_W / 2}
                y={gridTop - 6}
                fontSize={10}
                textAnchor="middle"
                fill={COLORS[k]}
              >
                {labels[k]}
              </text>
              {axisTicks(k, i * AXIS_W)}
            </g>
          ))}
          <g transform={`translate(${left},${gridTop})`}>
            <rect
              x={0}
              y={m.targetBand.y1}
              width={m.width}
              height={m.targetBand.y2 - m.targetBand.y1}
              fill="#e6f4ff"
              data-testid="target-band"
            />
            {m.guideLines.map((y, i) => (
              <line
                key={y}
                x1={0}
                x2={m.width}
                y1={y}
                y2={y}
                stroke={i % 5 === 0 ? '#8c8c8c' : '#e0e0e0'}
                strokeWidth={i % 5 === 0 ? 1 : 0.5}
              />
            ))}
            {(Object.keys(m.series) as SeriesKey[]).map((k) =>
              m.series[k].map((line) => (
                <g key={`${k}${line[0]!.x}`} data-series={k}>
                  <polyline
                    points={line.map((p) => `${p.x},${p.y}`).join(' ')}
                    fill="none"
                    stroke={COLORS[k]}
                    strokeWidth={LINE_WIDTH}
                  />
                  {line.map((p) => (
                    <circle
                      key={`${p.at}${p.x}`}
                      cx={p.x}
                      cy={p.y}
                      r={MARKER_RADIUS}
                      fill={k === 'temperature' ? '#fff' : COLORS[k]}
                      stroke={COLORS[k]}
                      strokeWidth={1.5}
                    >
                      <title>{`${labels[k]} ${p.value} ${p.at.slice(0, 16).replace('T', ' ')}`}</title>
                    </circle>
                  ))}
                </g>
              )),
            )}
            {m.notRaised.map((n) => (
              <g key={`nr${n.at}`} data-mark="not-raised">
                <text
                  x={n.x}
                  y={m.height - 6 * ROW}
                  fontSize={11}
                  fill={COLORS.temperature}
                  textAnchor="middle"
                  writingMode="tb"
                >
                  {labels.notRaised}
                </text>
                <path d={`M${n.x},${m.height - 3 * ROW} l-4,-8 h8 z`} fill={COLORS.temperature} />
              </g>
            ))}
          </g>
          {/* Events: vertical text above the grid, red as on paper charts. */}
          {m.events.map((e) => (
            <text
              key={`ev${e.at}${e.full}`}
              x={left + e.x - 4 + e.lane * (EVENT_FONT + 2)}
              y={HEAD + 4}
              fontSize={EVENT_FONT}
              fill="#cf1322"
              writingMode="tb"
              data-mark="event"
            >
              <title>{e.full}</title>
              {e.text}
            </text>
          ))}
          {/* Ventilator: a mark at each switch and a bar while it runs. */}
          <text x={4} y={gridTop + m.height + 22} fontSize={11} fill="#722ed1">
            {labels.ventilator}
          </text>
          {m.ventilation.map((v) => (
            <rect
              key={`vb${v.from}`}
              x={left + v.from}
              y={gridTop + m.height + 14}
              width={v.to - v.from}
              height={6}
              fill="#d3adf7"
            />
          ))}
          {m.ventilator.map((v) => (
            <g key={`v${v.at}`} data-mark={v.on ? 'ventilator-on' : 'ventilator-off'}>
              <path
                d={
                  v.on
                    ? `M${left + v.x},${gridTop + m.height + 8} l-6,12 h12 z`
                    : `M${left + v.x},${gridTop + m.height + 26} l-6,-12 h12 z`
                }
                fill={v.on ? '#722ed1' : '#fff'}
                stroke="#722ed1"
                strokeWidth={1.5}
              />
            </g>
          ))}
        </svg>
      </div>
    </div>
  );
}
