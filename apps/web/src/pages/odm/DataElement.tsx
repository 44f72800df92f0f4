import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  OBSERVATION_DOMAINS,
  type ObservationDomain,
  type OdmElementBinding,
  type OdmTopic,
} from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { odmApi } from './api';
import { ODM_NS } from './i18n';
import { TopicPicker, useTopics } from './parts';

type Row = Partial<OdmElementBinding> & { key: number };

function ConceptSelect({
  topicId,
  domain,
  value,
  onChange,
  disabled,
}: {
  topicId: number;
  domain: ObservationDomain | undefined;
  value: string | undefined;
  onChange: (v: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation(ODM_NS);
  const concepts = useQuery({
    queryKey: ['odm', 'concepts', topicId, domain],
    queryFn: () => odmApi.concepts(topicId, domain!),
    enabled: !!domain,
  });
  return (
    <Select
      showSearch
      disabled={disabled || !domain}
      value={value}
      onChange={onChange}
      loading={concepts.isLoading && !!domain}
      placeholder={t('elements.conceptPlaceholder')}
      style={{ width: '100%' }}
      options={(concepts.data?.items ?? []).map((c) => ({
        value: c.concept,
        label: t('elements.conceptRows', { concept: c.concept, patients: c.patients }),
      }))}
    />
  );
}

function Bindings({ topic }: { topic: OdmTopic }) {
  const { t } = useTranslation(ODM_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const client = useQueryClient();
  const editable = can('OdmDataElement', 'edit');
  const elements = useQuery({ queryKey: ['odm', 'elements'], queryFn: () => odmApi.elements() });
  const [rows, setRows] = useState<Row[]>(() => topic.elements.map((e, i) => ({ ...e, key: i })));
  const [saving, setSaving] = useState(false);
  const update = (key: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const complete = rows.every((r) => r.elementId && r.domain && r.concept);
  return (
    <>
      <Table<Row>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: <Empty /> }}
        columns={[
          {
            title: t('elements.element'),
            key: 'element',
            render: (_, r) => (
              <Select
                showSearch
                optionFilterProp="label"
                disabled={!editable}
                value={r.elementId}
                onChange={(v) => update(r.key, { elementId: v })}
                placeholder={t('elements.elementPlaceholder')}
                style={{ width: '100%' }}
                data-testid={`odm-el-element-${r.key}`}
                options={(elements.data?.items ?? []).map((e) => ({
                  value: e.id,
                  label: `${e.code} ${e.name}`,
                }))}
              />
            ),
          },
          {
            title: t('elements.domain'),
            key: 'domain',
            width: 150,
            render: (_, r) => (
              <Select
                disabled={!editable}
                value={r.domain}
                onChange={(v) => update(r.key, { domain: v, concept: undefined })}
                style={{ width: '100%' }}
                data-testid={`odm-el-domain-${r.key}`}
                options={OBSERVATION_DOMAINS.map((d) => ({ value: d, label: word('observationDomain', d) }))}
              />
            ),
          },
          {
            title: t('elements.concept'),
            key: 'concept',
            render: (_, r) => (
              <div data-testid={`odm-el-concept-${r.key}`}>
                <ConceptSelect
                  topicId={topic.id}
                  domain={r.domain}
                  value={r.concept}
                  disabled={!editable}
                  onChange={(v) => update(r.key, { concept: v })}
                />
              </div>
            ),
          },
          {
            title: t('elements.pick'),
            key: 'pick',
            width: 110,
            render: (_, r) => (
              <Select
                disabled={!editable}
                value={r.pick ?? 'last'}
                onChange={(v) => update(r.key, { pick: v })}
                style={{ width: '100%' }}
                options={[
                  { value: 'first', label: t('elements.first') },
                  { value: 'last', label: t('elements.last') },
                ]}
              />
            ),
          },
          {
            title: '',
            key: 'op',
            width: 60,
            render: (_, r) =>
              editable && (
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('elements.remove')}
                  onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                />
              ),
          },
        ]}
      />
      {editable && (
        <Space style={{ marginTop: 12 }}>
          <Button
            icon={<PlusOutlined />}
            data-testid="odm-el-add"
            onClick={() =>
              setRows((rs) => [...rs, { key: Math.max(-1, ...rs.map((x) => x.key)) + 1, pick: 'last' }])
            }
          >
            {t('elements.add')}
          </Button>
          <Button
            type="primary"
            loading={saving}
            disabled={!complete}
            data-testid="odm-el-save"
            onClick={async () => {
              setSaving(true);
              try {
                await odmApi.setElements(topic.id, {
                  elements: rows.map((r) => ({
                    elementId: r.elementId!,
                    domain: r.domain!,
                    concept: r.concept!,
                    pick: r.pick ?? 'last',
                  })),
                });
                message.success(t('elements.saved'));
                await client.invalidateQueries({ queryKey: ['odm', 'topics'] });
              } finally {
                setSaving(false);
              }
            }}
          >
            {t('elements.save')}
          </Button>
        </Space>
      )}
    </>
  );
}

/** data-element: the data elements of a topic's ODM files, each bound to an observation concept. */
export default function DataElement() {
  const { t } = useTranslation(ODM_NS);
  const topics = useTopics();
  const [picked, setPicked] = useState<number>();
  const items = topics.data?.items ?? [];
  const topic = items.find((x) => x.id === picked) ?? items[0];
  return (
    <Card title={t('elements.title')} loading={topics.isLoading}>
      <Typography.Paragraph type="secondary">{t('elements.hint')}</Typography.Paragraph>
      <div style={{ marginBottom: 16 }}>
        <TopicPicker topics={items} value={topic?.id} onChange={setPicked} />
      </div>
      {topic && <Bindings key={topic.id} topic={topic} />}
    </Card>
  );
}
