import { Descriptions, Table } from 'antd';
import ReactECharts from 'echarts-for-react';

/** Renders an analysis result: tables for statistics and coefficients, a step chart for Kaplan-Meier. */
// biome-ignore lint/suspicious/noExplicitAny: result JSON of the server, read field by field
type Any = Record<string, any>;
const f = (x: unknown, d = 4) =>
  typeof x === 'number'
    ? Math.abs(x) < 1e-4 && x !== 0
      ? x.toExponential(3)
      : x.toFixed(d)
    : String(x ?? '-');

export function AnalysisResult({ method, result }: { method: string; result: Any }) {
  if (method === 'descriptive')
    return (
      <Table
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={result.variables}
        columns={[
          { title: 'Variable', dataIndex: 'key' },
          { title: 'n', dataIndex: 'n' },
          { title: 'Missing', dataIndex: 'missing' },
          { title: 'Mean', dataIndex: 'mean', render: (v) => f(v, 3) },
          { title: 'SD', dataIndex: 'sd', render: (v) => f(v, 3) },
          { title: 'Median', dataIndex: 'median', render: (v) => f(v, 3) },
          {
            title: 'Q1–Q3',
            render: (_, r: Any) => (r.kind === 'numeric' ? `${f(r.q1, 2)} – ${f(r.q3, 2)}` : ''),
          },
          {
            title: 'Levels',
            render: (_, r: Any) =>
              (r.levels ?? [])
                .map((l: Any) => `${l.value}: ${l.count} (${l.percent.toFixed(1)}%)`)
                .join('; '),
          },
        ]}
      />
    );
  if (method === 'linear' || method === 'logistic')
    return (
      <>
        <Table
          rowKey="name"
          size="small"
          pagination={false}
          dataSource={result.coefficients}
          columns={[
            { title: 'Term', dataIndex: 'name' },
            { title: 'Estimate', dataIndex: 'estimate', render: (v) => f(v) },
            { title: 'SE', dataIndex: 'se', render: (v) => f(v) },
            { title: method === 'linear' ? 't' : 'z', dataIndex: 'statistic', render: (v) => f(v, 3) },
            { title: 'p', dataIndex: 'p', render: (v) => f(v) },
            ...(method === 'logistic'
              ? [
                  {
                    title: 'OR (95% CI)',
                    render: (_: unknown, r: Any) =>
                      `${f(r.oddsRatio, 3)} (${f(r.oddsRatioCi95[0], 3)}–${f(r.oddsRatioCi95[1], 3)})`,
                  },
                ]
              : []),
          ]}
        />
        <Descriptions size="small" column={4} style={{ marginTop: 8 }}>
          <Descriptions.Item label="n">{result.n}</Descriptions.Item>
          {method === 'linear' ? (
            <Descriptions.Item label="R²">{f(result.rSquared)}</Descriptions.Item>
          ) : (
            <Descriptions.Item label="AIC">{f(result.aic, 2)}</Descriptions.Item>
          )}
          <Descriptions.Item label="Dropped">{result.dropped}</Descriptions.Item>
        </Descriptions>
      </>
    );
  if (method === 'kaplanMeier') {
    const series = result.curves.map((c: Any) => ({
      name: c.group,
      type: 'line',
      step: 'end',
      data: [[0, 1], ...c.points.map((p: Any) => [p.time, p.survival])],
    }));
    return (
      <>
        <ReactECharts
          style={{ height: 320 }}
          option={{
            tooltip: { trigger: 'axis' },
            legend: {},
            xAxis: { type: 'value', name: 'days' },
            yAxis: { type: 'value', min: 0, max: 1 },
            series,
          }}
        />
        {result.logRank && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label="Log-rank χ²">{f(result.logRank.chi2, 3)}</Descriptions.Item>
            <Descriptions.Item label="df">{result.logRank.df}</Descriptions.Item>
            <Descriptions.Item label="p">{f(result.logRank.p)}</Descriptions.Item>
          </Descriptions>
        )}
      </>
    );
  }
  return (
    <Descriptions size="small" column={3} bordered>
      {['method', 'test', 't', 'df', 'W', 'z', 'chi2', 'p', 'meanX', 'meanY', 'difference']
        .filter((k) => result[k] !== undefined)
        .map((k) => (
          <Descriptions.Item key={k} label={k}>
            {f(result[k])}
          </Descriptions.Item>
        ))}
    </Descriptions>
  );
}
