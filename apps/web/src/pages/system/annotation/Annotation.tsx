import type { AnnotationDetail, AnnotationDocument, AnnotationEvaluation } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Input,
  Row,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../../components/Authorized';
import { saveOrShow } from '../../../components/form/server-errors';
import { annotationApi } from './api';
import { ANNOTATION_NS } from './i18n';

type Span = AnnotationDetail['spans'][number];
const COLORS = ['#e6f4ff', '#fff7e6', '#f6ffed', '#f9f0ff', '#fff1f0', '#e6fffb'];
const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

/** The document's text with its spans shaded; a mouse selection reports its offsets in the text. */
function MarkedText({
  text,
  spans,
  colorOf,
  onSelect,
}: {
  text: string;
  spans: Span[];
  colorOf: (label: string) => string;
  onSelect: (start: number, end: number) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const pieces: Array<{ at: number; text: string; span: Span | null }> = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue;
    if (s.start > at) pieces.push({ at, text: text.slice(at, s.start), span: null });
    pieces.push({ at: s.start, text: text.slice(s.start, s.end), span: s });
    at = s.end;
  }
  if (at < text.length) pieces.push({ at, text: text.slice(at), span: null });
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a span is chosen by selecting text; the same can be typed in the field below
    <div
      ref={ref}
      data-testid="annotation-text"
      style={{
        whiteSpace: 'pre-wrap',
        lineHeight: 2,
        border: '1px solid #f0f0f0',
        padding: 12,
        borderRadius: 6,
      }}
      onMouseUp={() => {
        const sel = window.getSelection();
        if (!sel || sel.isCollapsed || !ref.current) return;
        const range = sel.getRangeAt(0);
        if (!ref.current.contains(range.startContainer)) return;
        const before = document.createRange();
        before.setStart(ref.current, 0);
        before.setEnd(range.startContainer, range.startOffset);
        const start = before.toString().length;
        onSelect(start, start + range.toString().length);
      }}
    >
      {pieces.map((p) =>
        p.span ? (
          <mark
            key={p.at}
            style={{ background: colorOf(p.span.label), padding: '2px 0' }}
            title={p.span.label}
          >
            {p.text}
          </mark>
        ) : (
          <span key={p.at}>{p.text}</span>
        ),
      )}
    </div>
  );
}

function Editor({ id, onSaved }: { id: number; onSaved: () => void }) {
  const { t } = useTranslation(ANNOTATION_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const doc = useQuery({ queryKey: ['annotation', id], queryFn: () => annotationApi.document(id) });
  const labels = useQuery({ queryKey: ['annotation-labels'], queryFn: annotationApi.labels });
  const [spans, setSpans] = useState<Span[] | null>(null);
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<{ start: number; end: number } | null>(null);
  const [label, setLabel] = useState<string>();
  const codes = labels.data?.items ?? [];
  const colorOf = (l: string) =>
    COLORS[
      Math.max(
        0,
        codes.findIndex((c) => c.code === l),
      ) % COLORS.length
    ]!;
  const nameOf = (l: string) => codes.find((c) => c.code === l)?.name ?? l;
  if (doc.isError) return <Alert type="error" showIcon message={doc.error.message} />;
  if (!doc.data) return <Card loading />;
  const d = doc.data;
  const current = spans ?? d.spans;
  const add = () => {
    let at = picked && d.body.slice(picked.start, picked.end) === text ? picked : null;
    if (!at) {
      let from = 0;
      for (;;) {
        const i = d.body.indexOf(text, from);
        if (i < 0) break;
        if (!current.some((s) => s.start === i && s.label === label)) {
          at = { start: i, end: i + text.length };
          break;
        }
        from = i + 1;
      }
    }
    if (!at) {
      message.error(t('notFound', { text }));
      return;
    }
    setSpans([...current, { ...at, label: label! }]);
    setText('');
    setPicked(null);
  };
  return (
    <Card
      title={`${d.title} · ${d.patientMrn}`}
      data-testid="annotation-editor"
      extra={
        d.annotated &&
        can('SystemAnnotation', 'delete') && (
          <Button
            size="small"
            onClick={() =>
              saveOrShow(message, async () => {
                await annotationApi.remove(id);
                setSpans(null);
                await doc.refetch();
                onSaved();
              })
            }
          >
            {t('clear')}
          </Button>
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <MarkedText
          text={d.body}
          spans={current}
          colorOf={colorOf}
          onSelect={(start, end) => {
            setPicked({ start, end });
            setText(d.body.slice(start, end));
          }}
        />
        {labels.isError && <Alert type="error" showIcon message={labels.error.message} />}
        {can('SystemAnnotation', 'edit') && (
          <Space wrap>
            <Input
              data-testid="span-text"
              style={{ width: 200 }}
              placeholder={t('text')}
              title={t('textHelp')}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setPicked(null);
              }}
            />
            <Select
              data-testid="span-label"
              style={{ width: 220 }}
              placeholder={t('label')}
              showSearch
              optionFilterProp="label"
              value={label}
              onChange={setLabel}
              options={codes.map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` }))}
            />
            <Button data-testid="add-span" disabled={!text || !label} onClick={add}>
              {t('add')}
            </Button>
          </Space>
        )}
        <Typography.Text type="secondary">{t('textHelp')}</Typography.Text>
        {current.length ? (
          <Space size={[0, 8]} wrap data-testid="span-list">
            {current.map((s, i) => (
              <Tag
                key={`${s.start}-${s.label}`}
                color={colorOf(s.label)}
                style={{ color: '#000' }}
                closable={can('SystemAnnotation', 'edit')}
                onClose={() => setSpans(current.filter((_, k) => k !== i))}
              >
                {d.body.slice(s.start, s.end)} → {s.label} {nameOf(s.label)}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('noSpans')}</Typography.Text>
        )}
        {can('SystemAnnotation', 'edit') && (
          <Button
            type="primary"
            data-testid="save-annotation"
            onClick={() =>
              saveOrShow(message, async () => {
                await annotationApi.save(id, { spans: current });
                message.success(t('saved'));
                setSpans(null);
                await doc.refetch();
                onSaved();
              })
            }
          >
            {t('save')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

function Evaluation() {
  const { t } = useTranslation(ANNOTATION_NS);
  const labels = useQuery({ queryKey: ['annotation-labels'], queryFn: annotationApi.labels });
  const rules = useMemo(() => {
    const seen = new Map<string, string>();
    for (const l of labels.data?.items ?? []) if (!seen.has(l.ruleRef)) seen.set(l.ruleRef, l.ruleName);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [labels.data]);
  const [rule, setRule] = useState<string>();
  const run = useMutation({ mutationFn: (ref: string) => annotationApi.evaluate(ref) });
  const e: AnnotationEvaluation | undefined = run.data;
  return (
    <Card title={t('evaluation')} data-testid="annotation-evaluation">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('evaluationHint')}</Typography.Text>
        <Space>
          <Select
            data-testid="evaluate-rule"
            style={{ width: 240 }}
            placeholder={t('rule')}
            value={rule}
            onChange={setRule}
            options={rules}
          />
          <Button
            type="primary"
            data-testid="evaluate"
            disabled={!rule}
            loading={run.isPending}
            onClick={() => run.mutate(rule!)}
          >
            {t('evaluate')}
          </Button>
        </Space>
        {run.isError && <Alert type="error" showIcon message={run.error.message} />}
        {e && (
          <>
            <Typography.Text>{t('documents', { n: e.documents })}</Typography.Text>
            <Table
              rowKey="label"
              size="small"
              pagination={false}
              data-testid="evaluation-table"
              dataSource={[
                ...e.labels.map((l) => ({ ...l, f1: null as number | null })),
                { label: t('total'), name: '', ...e.total },
              ]}
              columns={[
                { title: t('label'), key: 'label', render: (_, l) => `${l.label} ${l.name}` },
                { title: t('predicted'), dataIndex: 'predicted' },
                { title: t('annotated'), dataIndex: 'annotated' },
                { title: t('matched'), dataIndex: 'matched' },
                { title: t('precision'), key: 'precision', render: (_, l) => pct(l.precision) },
                { title: t('recall'), key: 'recall', render: (_, l) => pct(l.recall) },
                { title: t('f1'), key: 'f1', render: (_, l) => pct(l.f1) },
              ]}
            />
            {e.misses.length > 0 && (
              <Table
                rowKey={(m) => `${m.documentId}-${m.label}-${m.start}-${m.kind}`}
                size="small"
                pagination={false}
                title={() => t('misses')}
                dataSource={e.misses}
                columns={[
                  { title: t('document'), dataIndex: 'documentId' },
                  { title: t('label'), dataIndex: 'label' },
                  { title: t('text'), dataIndex: 'text' },
                  {
                    title: '',
                    key: 'kind',
                    render: (_, m) => (
                      <Tag color={m.kind === 'falsePositive' ? 'orange' : 'red'}>{t(m.kind)}</Tag>
                    ),
                  },
                ]}
              />
            )}
          </>
        )}
      </Space>
    </Card>
  );
}

/** 标注管理 (`/system/annotation`): mark values in documents; measure cleaning rules on the marks. */
export default function Annotation() {
  const { t } = useTranslation(ANNOTATION_NS);
  const [q, setQ] = useState('');
  const [state, setState] = useState<'all' | 'annotated' | 'open'>('all');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const list = useQuery({
    queryKey: ['annotation-docs', q, state, page],
    queryFn: () => annotationApi.documents({ q, state, page, size: 10 }),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Card title={t('title')} data-testid="annotation">
        <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} lg={10}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <Input.Search
                  data-testid="annotation-search"
                  allowClear
                  placeholder={t('search')}
                  onSearch={(v) => {
                    setQ(v);
                    setPage(1);
                  }}
                  style={{ width: 220 }}
                />
                <Segmented
                  value={state}
                  onChange={(v) => {
                    setState(v as typeof state);
                    setPage(1);
                  }}
                  options={(['all', 'annotated', 'open'] as const).map((s) => ({
                    value: s,
                    label: t(`state.${s}`),
                  }))}
                />
              </Space>
              {list.isError ? (
                <Alert type="error" showIcon message={list.error.message} />
              ) : (
                <Table<AnnotationDocument>
                  rowKey="id"
                  size="small"
                  loading={list.isLoading}
                  dataSource={list.data?.items ?? []}
                  pagination={{
                    current: page,
                    pageSize: 10,
                    total: list.data?.total ?? 0,
                    onChange: setPage,
                  }}
                  onRow={(r) => ({ onClick: () => setSelected(r.id), style: { cursor: 'pointer' } })}
                  rowClassName={(r) => (r.id === selected ? 'ant-table-row-selected' : '')}
                  columns={[
                    { title: t('docTitle'), dataIndex: 'title' },
                    { title: t('mrn'), dataIndex: 'patientMrn' },
                    {
                      title: t('writtenAt'),
                      dataIndex: 'writtenAt',
                      render: (_, r) => new Date(r.writtenAt).toLocaleDateString(),
                    },
                    {
                      title: t('spans'),
                      key: 'spans',
                      render: (_, r) => (r.annotated ? <Tag color="green">{r.spans}</Tag> : '-'),
                    },
                  ]}
                />
              )}
            </Space>
          </Col>
          <Col xs={24} lg={14}>
            {selected === null ? (
              <Empty description={t('pick')} />
            ) : (
              <Editor key={selected} id={selected} onSaved={() => list.refetch()} />
            )}
          </Col>
        </Row>
      </Card>
      <Evaluation />
    </Space>
  );
}
