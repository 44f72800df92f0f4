import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Empty, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { useSubjectId } from './useSubjectId';

/** data-reduction: build an analysis dataset as a background job and preview it. */
export default function DataReduction() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const id = useSubjectId();
  const qc = useQueryClient();
  const [name, setName] = useState('分析数据集');
  const [highGlu, setHighGlu] = useState(true);
  const [preview, setPreview] = useState<number | null>(null);
  const subject = useQuery({
    queryKey: ['research', 'subject', id],
    queryFn: () => researchApi.get(id!),
    enabled: id !== null,
  });
  const list = useQuery({
    queryKey: ['research', 'datasets', id],
    queryFn: () => researchApi.datasets(id!),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'building') ? 1000 : false),
  });
  const rows = useQuery({
    queryKey: ['research', 'dataset', id, preview],
    queryFn: () => researchApi.dataset(id!, preview!),
    enabled: preview !== null,
  });
  const build = useMutation({
    mutationFn: () => {
      const hasGlu = subject.data?.variables.some((v) => v.key === 'glu');
      return researchApi.buildDataset(id!, {
        name,
        derived:
          highGlu && hasGlu
            ? [{ key: 'highGlu', label: '高血糖', op: 'threshold', from: 'glu', value: 7 }]
            : [],
      });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['research', 'datasets', id] }),
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <Empty description={t('analysis.pickSubject')} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={`${t('reduction.title')} · ${subject.data?.name ?? ''}`}>
        <Space wrap>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={t('reduction.name')}
            style={{ width: 240 }}
          />
          <Checkbox checked={highGlu} onChange={(e) => setHighGlu(e.target.checked)}>
            {t('reduction.derived')}
          </Checkbox>
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
            { title: t('reduction.status'), dataIndex: 'status' },
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
            columns={[{ key: 'studyNo', label: 'No.' }, ...rows.data.columns].map((c) => ({
              title: c.label,
              dataIndex: c.key,
            }))}
          />
        </Card>
      )}
    </Space>
  );
}
