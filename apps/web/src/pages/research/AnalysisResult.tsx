import { Alert, Descriptions, Space, Table, Typography } from 'antd';
import ReactECharts from 'echarts-for-react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import type { DatasetColumn } from './api';
import { RESEARCH_NS } from './i18n';
import { codeText, columnLabel } from './labels';

/**
 * Renders an analysis result: tables for statistics and coefficients, a step chart for
 * Kaplan-Meier. The server sends keys and codes (`mean`, `(Intercept)`, `welch-t`, the curve
 * `all`); every header and label here is worded through the research namespace.
 */
// biome-ignore lint/suspicious/noExplicitAny: result JSON of the server, read field by field
type Any = Record<string, any>;
const f = (x: unknown, d = 4) =>
  typeof x === 'number'
    ? Math.abs(x) < 1e-4 && x !== 0
      ? x.toExponential(3)
      : x.toFixed(d)
    : String(x ?? '-');
/** P values as clinical tables print them: four decimals, and "< 0.0001" below that. */
const fp = (x: unknown) => (typeof x === 'number' && x < 1e-4 ? '< 0.0001' : f(x));
const ci = (pair: unknown, d = 3) =>
  Array.isArray(pair) && pair.length === 2 ? `${f(pair[0], d)} – ${f(pair[1], d)}` : '-';
/** Odds ratios: three decimals, "< 0.001" for a tiny one (an intercept's), never an exponent. */
const fo = (x: unknown) =>
  typeof x === 'number' && x > 0 && x < 0.001
    ? '< 0.001'
    : typeof x === 'number' && x >= 1e6
      ? '> 10⁶'
      : f(x, 3);
const orCi = (pair: unknown) =>
  Array.isArray(pair) && pair.length === 2 ? `${fo(pair[0])} – ${fo(pair[1])}` : '-';

const METHOD_CODES: Record<string, string> = {
  'welch-t': 'result.welchT',
  'mann-whitney': 'result.mannWhitney',
  'chi-square': 'result.chiSquare',
  'log-rank': 'result.logRankTest',
};

export function AnalysisResult({
  method,
  result,
  params = {},
  columns = [],
}: {
  method: string;
  result: Any;
  /** The analysis as it was asked (outcome, group...), to name its columns. */
  params?: Any;
  /** The dataset's columns, to show a variable by its label as well as its key. */
  columns?: DatasetColumn[];
}) {
  const { t } = useTranslation(RESEARCH_NS);
  const word = useLabel();
  const byKey = new Map(columns.map((c) => [c.key, c]));
  /** A level of a coded column (sex 1/2, a choice 0/1/3) in words. */
  const levelOf = (key: string | undefined, value: unknown) =>
    codeText(key ? byKey.get(key) : undefined, value, word);
  const labelOf = (key: string) => {
    const c = byKey.get(key);
    return c ? columnLabel(t, c) : key;
  };
  /** A variable: its label, with the key as secondary text (the key alone when there is no label). */
  const variable = (key: string) => {
    const label = labelOf(key);
    return label === key ? (
      key
    ) : (
      <span title={key}>
        {label} <Typography.Text type="secondary">({key})</Typography.Text>
      </span>
    );
  };
  const term = (name: string) => (name === '(Intercept)' ? t('result.intercept') : variable(name));

  if (method === 'descriptive')
    return (
      <Table
        rowKey="key"
        size="small"
        pagination={false}
        scroll={{ x: true }}
        dataSource={result.variables}
        columns={[
          { title: t('result.variable'), dataIndex: 'key', render: (k: string) => variable(k) },
          { title: t('result.n'), dataIndex: 'n' },
          { title: t('result.missing'), dataIndex: 'missing' },
          { title: t('result.mean'), dataIndex: 'mean', render: (v) => f(v, 3) },
          { title: t('result.sd'), dataIndex: 'sd', render: (v) => f(v, 3) },
          { title: t('result.median'), dataIndex: 'median', render: (v) => f(v, 3) },
          {
            title: t('result.quartiles'),
            key: 'quartiles',
            render: (_, r: Any) => (r.kind === 'numeric' ? `${f(r.q1, 2)} – ${f(r.q3, 2)}` : ''),
          },
          {
            title: t('result.range'),
            key: 'range',
            render: (_, r: Any) => (r.kind === 'numeric' ? `${f(r.min, 2)} – ${f(r.max, 2)}` : ''),
          },
          {
            title: t('result.levels'),
            key: 'levels',
            render: (_, r: Any) =>
              (r.levels ?? [])
                .map((l: Any) => `${levelOf(r.key, l.value)}: ${l.count} (${l.percent.toFixed(1)}%)`)
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
          scroll={{ x: true }}
          dataSource={result.coefficients}
          columns={[
            { title: t('result.term'), dataIndex: 'name', render: (n: string) => term(n) },
            { title: t('result.estimate'), dataIndex: 'estimate', render: (v) => f(v) },
            { title: t('result.se'), dataIndex: 'se', render: (v) => f(v) },
            {
              title: method === 'linear' ? t('result.t') : t('result.z'),
              dataIndex: 'statistic',
              render: (v) => f(v, 3),
            },
            { title: t('result.p'), dataIndex: 'p', render: (v) => fp(v) },
            method === 'logistic'
              ? {
                  title: t('result.oddsRatio'),
                  key: 'oddsRatio',
                  render: (_: unknown, r: Any) => `${fo(r.oddsRatio)} (${orCi(r.oddsRatioCi95)})`,
                }
              : { title: t('result.ci95'), key: 'ci95', render: (_: unknown, r: Any) => ci(r.ci95, 4) },
          ]}
        />
        <Descriptions size="small" column={4} style={{ marginTop: 8 }}>
          <Descriptions.Item label={t('result.n')}>{result.n}</Descriptions.Item>
          {method === 'linear' ? (
            <>
              <Descriptions.Item label={t('result.rSquared')}>{f(result.rSquared)}</Descriptions.Item>
              <Descriptions.Item label={t('result.adjRSquared')}>{f(result.adjRSquared)}</Descriptions.Item>
              <Descriptions.Item label={t('result.fTest')}>
                F({result.fDf?.[0]}, {result.fDf?.[1]}) = {f(result.fStatistic, 3)}, {t('result.p')}{' '}
                {fp(result.fP)}
              </Descriptions.Item>
            </>
          ) : (
            <>
              <Descriptions.Item label={t('result.aic')}>{f(result.aic, 2)}</Descriptions.Item>
              <Descriptions.Item label={t('result.converged')}>
                {result.converged ? t('result.yes') : t('result.no')}
              </Descriptions.Item>
            </>
          )}
          <Descriptions.Item label={t('result.dropped')}>{result.dropped}</Descriptions.Item>
        </Descriptions>
      </>
    );

  if (method === 'kaplanMeier') {
    const groupName = (g: string) =>
      g === 'all' && !params.group
        ? t('result.all')
        : params.group
          ? `${labelOf(params.group)} = ${levelOf(params.group, g)}`
          : g;
    const series = result.curves.map((c: Any) => ({
      name: groupName(c.group),
      type: 'line',
      step: 'end',
      data: [[0, 1], ...c.points.map((p: Any) => [p.time, p.survival])],
    }));
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <ReactECharts
          style={{ height: 320 }}
          option={{
            tooltip: { trigger: 'axis' },
            legend: {},
            xAxis: { type: 'value', name: t('result.time') },
            yAxis: { type: 'value', min: 0, max: 1, name: t('result.survival') },
            series,
          }}
        />
        <Table
          rowKey="group"
          size="small"
          pagination={false}
          dataSource={result.curves}
          columns={[
            { title: t('result.group'), dataIndex: 'group', render: (g: string) => groupName(g) },
            { title: t('result.n'), dataIndex: 'n' },
            { title: t('result.events'), dataIndex: 'events' },
            {
              title: t('result.medianSurvival'),
              dataIndex: 'median',
              render: (m: number | null) => (m === null ? t('result.notReached') : m),
            },
          ]}
        />
        {result.logRank && (
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={t('result.logRank')}>{f(result.logRank.chi2, 3)}</Descriptions.Item>
            <Descriptions.Item label={t('result.df')}>{result.logRank.df}</Descriptions.Item>
            <Descriptions.Item label={t('result.p')}>{fp(result.logRank.p)}</Descriptions.Item>
          </Descriptions>
        )}
        <Typography.Text type="secondary">
          {t('result.dropped')}: {result.dropped}
        </Typography.Text>
      </Space>
    );
  }

  // Group comparison: a t-test or Mann-Whitney test of an outcome between two groups, or a
  // chi-square test of a table.
  const groupTitle = params.group ? labelOf(params.group) : t('result.group');
  const levels: Any[] = result.groups ?? [];
  const stats: Array<[label: string, value: string]> = [
    [
      t('result.method'),
      METHOD_CODES[result.method] ? t(METHOD_CODES[result.method]!) : String(result.method),
    ],
    ...(result.t !== undefined ? [[t('result.t'), f(result.t, 3)] as [string, string]] : []),
    ...(result.W !== undefined ? [[t('result.W'), f(result.W, 1)] as [string, string]] : []),
    ...(result.z !== undefined ? [[t('result.z'), f(result.z, 3)] as [string, string]] : []),
    ...(result.chi2 !== undefined ? [[t('result.chi2'), f(result.chi2, 3)] as [string, string]] : []),
    ...(result.df !== undefined
      ? [[t('result.df'), f(result.df, Number.isInteger(result.df) ? 0 : 2)] as [string, string]]
      : []),
    [t('result.p'), fp(result.p)],
    ...(result.meanX !== undefined && levels.length === 2
      ? [
          [
            t('result.meanOf', { group: `${groupTitle} = ${levelOf(params.group, levels[0]!.level)}` }),
            f(result.meanX, 3),
          ] as [string, string],
          [
            t('result.meanOf', { group: `${groupTitle} = ${levelOf(params.group, levels[1]!.level)}` }),
            f(result.meanY, 3),
          ] as [string, string],
          [t('result.difference'), `${f(result.difference, 3)} (${ci(result.ci95)})`] as [string, string],
        ]
      : []),
    [t('result.dropped'), String(result.dropped ?? 0)],
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {levels.length > 0 && (
        <Table
          rowKey="level"
          size="small"
          pagination={false}
          dataSource={levels}
          columns={[
            { title: groupTitle, dataIndex: 'level', render: (v: string) => levelOf(params.group, v) },
            { title: t('result.n'), dataIndex: 'n' },
            { title: t('result.mean'), dataIndex: 'mean', render: (v) => f(v, 3) },
            { title: t('result.sd'), dataIndex: 'sd', render: (v) => f(v, 3) },
            { title: t('result.median'), dataIndex: 'median', render: (v) => f(v, 3) },
            {
              title: t('result.quartiles'),
              key: 'quartiles',
              render: (_, r: Any) => `${f(r.q1, 2)} – ${f(r.q3, 2)}`,
            },
          ]}
        />
      )}
      {Array.isArray(result.table) && (
        <Table
          rowKey="level"
          size="small"
          pagination={false}
          dataSource={(result.rowLevels as string[]).map((level, i) => ({ level, counts: result.table[i] }))}
          columns={[
            { title: groupTitle, dataIndex: 'level', render: (v: string) => levelOf(params.group, v) },
            ...(result.colLevels as string[]).map((c, j) => ({
              title: t('result.outcome', {
                value: params.outcome ? `${labelOf(params.outcome)} = ${levelOf(params.outcome, c)}` : c,
              }),
              key: `c${j}`,
              render: (_: unknown, r: Any) => r.counts[j],
            })),
          ]}
        />
      )}
      {result.switchedFrom && (
        <Alert
          type="info"
          showIcon
          message={t('result.switchedToChiSquare', {
            outcome: params.outcome ? labelOf(params.outcome) : '',
          })}
        />
      )}
      {result.smallExpected && <Alert type="warning" showIcon message={t('result.smallExpected')} />}
      <Descriptions size="small" column={3} bordered>
        {stats.map(([label, value]) => (
          <Descriptions.Item key={label} label={label}>
            {value}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Space>
  );
}
