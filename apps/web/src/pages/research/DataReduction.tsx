import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Input, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { cellText, columnDecimals, columnLabel } from './labels';
import SubjectList from './SubjectList';
import { useSubjectId } from './useSubjectId';

/** data-reduction: build an analysis dataset as a background job and preview it. */
export default function DataReduction() {
  const { t } = useTranslation(RESEARCH_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const id = useSubjectId();
  const qc = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const [highGlu, setHighGlu] = useState(true);
  const [preview, setPreview] = useState<number | null>(null);
  const subject = useQuery({
    queryKey: ['research', 'subject', id],
    queryFn: () => researchApi.get(id!),
    enabled: id !== null,
  });
  const list = useJobPoll({
    queryKey: ['research', 'datasets', id],
    queryFn: () => researchApi.datasets(id!),
    enabled: id !== null,
    underWay: (datasets) => datasets.some((d) => isUnderWay(d.status)),
  });
  const crf = useQuery({
    queryKey: ['research', 'crf-items', id],
    queryFn: () => researchApi.crfItems(id!),
    enabled: id !== null && !!subject.data?.crfFormId,
  });
  const [clinical, setClinical] = useState<{ subject: number | null; keys: string[] } | null>(null);
  const [crfItems, setCrfItems] = useState<string[]>([]);
  // All clinical variables are chosen until the user changes the choice.
  const subjectVars = subject.data?.variables ?? [];
  const chosen = clinical?.subject === id ? clinical.keys : subjectVars.map((v) => v.key);
  const rows = useQuery({
    queryKey: ['research', 'dataset', id, preview],
    queryFn: () => researchApi.dataset(id!, preview!),
    enabled: preview !== null,
  });
  const build = useMutation({
    mutationFn: () => {
      const hasGlu = chosen.includes('glu');
      if (!chosen.length && !crfItems.length) throw new Error(t('reduction.pickOne'));
      return researchApi.buildDataset(id!, {
        name: name ?? t('reduction.defaultName'),
        variables: chosen,
        crfItems,
        derived:
          highGlu && hasGlu
            ? [{ key: 'highGlu', label: t('reduction.highGlu'), op: 'threshold', from: 'glu', value: 7 }]
            : [],
      });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['research', 'datasets', id] }),
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <SubjectList target="subject-list/data-reduction" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={`${t('reduction.title')} · ${subject.data?.name ?? ''}`}>
        <Typography.Title level={5}>{t('reduction.clinical')}</Typography.Title>
        <Checkbox.Group
          data-testid="clinical-vars"
          value={chosen}
          onChange={(v) => setClinical({ subject: id, keys: v as string[] })}
          options={subjectVars.map((v) => ({ value: v.key, label: v.label }))}
        />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {crf.data
            ? t('reduction.crf', { form: crf.data.name, version: crf.data.version })
            : t('reduction.crfTitle')}
        </Typography.Title>
        {!subject.data ? null : !subject.data.crfFormId ? (
          <Typography.Text type="secondary">{t('reduction.noCrf')}</Typography.Text>
        ) : (
          <>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('reduction.crfHelp')}
            </Typography.Paragraph>
            <Checkbox.Group
              data-testid="crf-items"
              value={crfItems}
              onChange={(v) => setCrfItems(v as string[])}
              options={(crf.data?.items ?? []).map((it) => ({
                value: it.key,
                disabled: it.kind === 'other',
                label:
                  it.kind === 'other' ? (
                    <Tooltip title={t('reduction.crfOther')}>{it.title}</Tooltip>
                  ) : (
                    <span>
                      {it.title}{' '}
                      <Tag bordered={false} color={it.kind === 'number' ? 'blue' : 'purple'}>
                        {it.kind === 'number'
                          ? '123'
                          : it.options.map((o) => `${o.code}=${o.name}`).join(' · ')}
                      </Tag>
                    </span>
                  ),
              }))}
            />
          </>
        )}
        <Space wrap style={{ marginTop: 16, display: 'flex' }}>
          <Input
            value={name ?? t('reduction.defaultName')}
            onChange={(e) => setName(e.target.value)}
            placeholder={t('reduction.name')}
            style={{ width: 240 }}
          />
          {chosen.includes('glu') && (
            <Checkbox checked={highGlu} onChange={(e) => setHighGlu(e.target.checked)}>
              {t('reduction.derived')}
            </Checkbox>
          )}
          <Button
            type="primary"
            data-testid="build-dataset"
            loading={build.isPending}
            onClick={() => build.mutate()}
          >
            {t('reduction.build')}
          </Button>
        </Space>
        <Table
          rowKey="id"
          size="small"
          style={{ marginTop: 12 }}
          dataSource={list.data ?? []}
          columns={[
            { title: t('reduction.name'), dataIndex: 'name' },
            {
              title: t('reduction.status'),
              dataIndex: 'status',
              render: (v: string) => word('datasetStatus', v),
            },
            { title: t('reduction.rows'), dataIndex: 'rowCount' },
            {
              title: '',
              render: (_, r) => (
                <Button type="link" size="small" onClick={() => setPreview(r.id)}>
                  {t('reduction.preview')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {rows.data && (
        <Card title={rows.data.name}>
          <Table
            rowKey="studyNo"
            size="small"
            scroll={{ x: true }}
            dataSource={rows.data.rows}
            columns={[
              { key: 'studyNo', title: t('columns.studyNo'), dataIndex: 'studyNo' },
              ...rows.data.columns.map((c) => {
                const decimals = columnDecimals(rows.data.rows, c.key);
                return {
                  key: c.key,
                  title: columnLabel(t, c),
                  dataIndex: c.key,
                  // Numbers to the right; codes in words (sex, options, a survival event) to the left.
                  align: (c.type === 'number' && !c.options?.length && c.survival?.part !== 'event'
                    ? 'right'
                    : 'left') as 'right' | 'left',
                  render: (v: unknown) => cellText(c, v, decimals, word),
                };
              }),
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
