import { ProForm, ProFormDependency, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { answerItems, type Form, itemValueKind } from '@crdp/crf';
import { useMutation } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Row, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { type Comparison, type LibraryDetail, libraryApi, type StatisticsResult, type Summary } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

const fmt = (v: number | null | undefined, d = 2) =>
  v === null || v === undefined || Number.isNaN(v) ? '-' : Number(v.toFixed(d)).toString();
const fmtP = (p: number | undefined) => (p === undefined ? '-' : p < 0.001 ? '<0.001' : p.toFixed(3));

function SummaryText({ s }: { s: Summary }) {
  const { t } = useTranslation(LIBRARY_NS);
  if (s.kind === 'numeric')
    return (
      <span>
        {t('stats.numericLine', {
          mean: fmt(s.mean),
          sd: fmt(s.sd),
          median: fmt(s.median),
          q1: fmt(s.q1),
          q3: fmt(s.q3),
          min: fmt(s.min),
          max: fmt(s.max),
        })}
      </span>
    );
  return (
    <span>
      {s.levels
        .slice(0, 8)
        .map((l) => `${l.value}: ${l.count} (${fmt(l.percent, 1)}%)`)
        .join('；') || '-'}
    </span>
  );
}

function Describe({ result }: { result: StatisticsResult }) {
  const { t } = useTranslation(LIBRARY_NS);
  const locale = currentLocale();
  const categorical = result.items.filter((i) => i.summary.kind === 'categorical');
  const completenessSpec: ViewSpec = {
    subtype: 'stacked-bar',
    title: t('stats.presence'),
    channels: {
      y: [{ field: 'item', labelOverride: t('stats.item') }],
      x: [{ field: 'count', aggregate: 'sum', labelOverride: t('stats.patients') }],
      color: [{ field: 'state', labelOverride: t('stats.state') }],
    },
    palette: 'theme',
  };
  const presence = result.items.flatMap((i) => [
    { item: i.title, state: t('stats.present'), count: i.summary.n },
    { item: i.title, state: t('stats.absent'), count: i.summary.missing },
  ]);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={result.items}
        columns={[
          { title: t('stats.item'), dataIndex: 'title' },
          { title: 'n', key: 'n', render: (_, r) => r.summary.n },
          { title: t('stats.missing'), key: 'missing', render: (_, r) => r.summary.missing },
          { title: t('stats.summary'), key: 's', render: (_, r) => <SummaryText s={r.summary} /> },
        ]}
      />
      <Row gutter={16}>
        <Col xs={24} xl={12}>
          <ChartView
            spec={completenessSpec}
            rows={presence}
            locale={locale}
            height={Math.max(220, 60 * result.items.length)}
            testId="chart-presence"
          />
        </Col>
        {categorical.slice(0, 3).map((i) => (
          <Col xs={24} xl={12} key={i.key}>
            <ChartView
              spec={{
                subtype: 'pie',
                title: i.title,
                channels: {
                  category: [{ field: 'value', labelOverride: i.title }],
                  value: [{ field: 'count', aggregate: 'sum', labelOverride: t('stats.patients') }],
                },
                palette: 'theme',
              }}
              rows={i.summary.kind === 'categorical' ? i.summary.levels : []}
              locale={locale}
              height={260}
              testId={`chart-levels-${i.key}`}
            />
          </Col>
        ))}
      </Row>
    </Space>
  );
}

function Compare({ result, a, b }: { result: StatisticsResult; a: string; b: string }) {
  const { t } = useTranslation(LIBRARY_NS);
  const locale = currentLocale();
  const titles = new Map(result.items.map((i) => [i.key, i.title]));
  const means = (result.comparisons ?? []).flatMap((c) =>
    c.groupA.kind === 'numeric' && c.groupB.kind === 'numeric'
      ? [
          { item: titles.get(c.key) ?? c.key, group: a, mean: c.groupA.mean },
          { item: titles.get(c.key) ?? c.key, group: b, mean: c.groupB.mean },
        ]
      : [],
  );
  const test = (c: Comparison) =>
    c.error
      ? c.error
      : c.tTest
        ? t('stats.tLine', {
            t: fmt(c.tTest.t, 3),
            df: fmt(c.tTest.df, 1),
            p: fmtP(c.tTest.p),
            w: fmt(c.mannWhitney?.W, 1),
            pw: fmtP(c.mannWhitney?.p),
          })
        : c.chiSquare
          ? t('stats.chiLine', {
              chi2: fmt(c.chiSquare.chi2, 3),
              df: c.chiSquare.df,
              p: fmtP(c.chiSquare.p),
            }) + (c.chiSquare.smallExpected ? ` ${t('stats.smallExpected')}` : '')
          : '-';
  return (
    <Card
      size="small"
      title={t('stats.compareTitle', { a, b, na: result.groups?.a ?? 0, nb: result.groups?.b ?? 0 })}
    >
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={result.comparisons ?? []}
        columns={[
          { title: t('stats.item'), key: 'item', render: (_, c) => titles.get(c.key) ?? c.key },
          { title: a, key: 'a', render: (_, c) => <SummaryText s={c.groupA} /> },
          { title: b, key: 'b', render: (_, c) => <SummaryText s={c.groupB} /> },
          { title: t('stats.test'), key: 'test', render: (_, c) => test(c) },
        ]}
      />
      {means.length > 0 && (
        <ChartView
          spec={{
            subtype: 'column',
            title: t('stats.means'),
            channels: {
              x: [{ field: 'item', labelOverride: t('stats.item') }],
              y: [{ field: 'mean', aggregate: 'sum', labelOverride: t('stats.mean') }],
              color: [{ field: 'group', labelOverride: t('stats.group') }],
            },
            palette: 'theme',
          }}
          rows={means}
          locale={locale}
          height={280}
          testId="chart-means"
        />
      )}
    </Card>
  );
}

interface FormValues {
  itemKeys: string[];
  compareKey?: string;
  a?: string;
  b?: string;
}

/** Single-choice items of the library's form with their options, so groups are picked by name, not typed as codes. */
function choiceOptions(definition: unknown) {
  const out = new Map<string, Array<{ value: string; label: string }>>();
  try {
    for (const { item } of answerItems(definition as Form))
      if (itemValueKind(item) === 'choice')
        out.set(
          item.key,
          (item.options ?? []).map((o) => ({ value: String(o.code), label: o.name })),
        );
  } catch {
    // A definition the CRF model cannot read: groups are typed as before.
  }
  return out;
}

function Analysis({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const choices = choiceOptions(lib.definition);
  const run = useMutation({
    mutationFn: (v: FormValues) =>
      libraryApi.statistics(lib.id, {
        itemKeys: v.itemKeys,
        ...(v.compareKey && v.a && v.b ? { compare: { itemKey: v.compareKey, a: v.a, b: v.b } } : {}),
      }),
  });
  const vars = run.variables;
  const nameOf = (key: string | undefined, code: string) =>
    (key ? choices.get(key)?.find((o) => o.value === code)?.label : undefined) ?? code;
  const options = lib.items.map((i) => ({ value: i.key, label: i.title }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <ProForm<FormValues>
        layout="inline"
        initialValues={{ itemKeys: lib.items.slice(0, 4).map((i) => i.key) }}
        submitter={{ searchConfig: { submitText: t('stats.run') }, resetButtonProps: false }}
        onFinish={async (v) => {
          await run.mutateAsync(v).catch(() => undefined);
          return true;
        }}
      >
        <ProFormSelect
          name="itemKeys"
          label={t('stats.items')}
          mode="multiple"
          width="lg"
          options={options}
          rules={[{ required: true }]}
        />
        <ProFormSelect name="compareKey" label={t('stats.groupBy')} width="sm" options={options} allowClear />
        <ProFormDependency name={['compareKey']}>
          {({ compareKey }) => {
            const picks = compareKey ? choices.get(compareKey as string) : undefined;
            return picks ? (
              <>
                <ProFormSelect name="a" label={t('stats.groupA')} width="xs" options={picks} />
                <ProFormSelect name="b" label={t('stats.groupB')} width="xs" options={picks} />
              </>
            ) : (
              <>
                <ProFormText name="a" label={t('stats.groupA')} width="xs" />
                <ProFormText name="b" label={t('stats.groupB')} width="xs" />
              </>
            );
          }}
        </ProFormDependency>
      </ProForm>
      <Typography.Text type="secondary">{t('stats.hint')}</Typography.Text>
      {run.error && <Alert type="error" showIcon message={(run.error as Error).message} />}
      {run.data && (
        <>
          <Descriptions
            size="small"
            items={[{ key: 'n', label: t('stats.patients'), children: run.data.patients }]}
          />
          <Describe result={run.data} />
          {run.data.comparisons && vars?.a && vars.b && (
            <Compare
              result={run.data}
              a={nameOf(vars.compareKey, vars.a)}
              b={nameOf(vars.compareKey, vars.b)}
            />
          )}
        </>
      )}
    </Space>
  );
}

/** statistics-analysis: describe indicators (n, missing, mean, SD, median, IQR, frequencies); compare two groups. */
export default function StatisticsAnalysis() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('stats.title')}>{(lib) => <Analysis key={lib.id} lib={lib} />}</LibraryPage>;
}
