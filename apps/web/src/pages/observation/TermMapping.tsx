import { ModalForm, ProFormText } from '@ant-design/pro-components';
import {
  CODING_SCREENS,
  OBSERVATION_CODED_DOMAINS,
  OBSERVATION_CODING_KIND,
  type ObservationCodedDomain,
  type ObservationTerm,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Input, Popconfirm, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { observationApi } from './api';
import { OBS_NS } from './i18n';

const PERM = 'ObservationTermMapping';

/**
 * term-mapping: the local terms of the observation store and their standard codes. A mapping
 * written here is the coding area's own (the coding screens show it, and theirs show here).
 */
export default function TermMapping() {
  const { t } = useTranslation(OBS_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const [domain, setDomain] = useState<ObservationCodedDomain>('diagnosis');
  const [q, setQ] = useState('');
  const [mapped, setMapped] = useState<'all' | 'mapped' | 'unmapped'>('all');
  const [page, setPage] = useState({ page: 1, size: 20 });
  const terms = useQuery({
    queryKey: ['observation', 'terms', domain, q, mapped, page],
    queryFn: () => observationApi.terms({ domain, q, mapped, ...page }),
  });
  const systemKey = CODING_SCREENS[OBSERVATION_CODING_KIND[domain]].systemKey;
  const act = async (term: string, action: 'code' | 'noCode' | 'reset', code?: string) => {
    await observationApi.mapTerm({ domain, term, action, ...(code ? { code } : {}) });
    message.success(t('terms.saved'));
    await terms.refetch();
  };
  const editable = can(PERM, 'edit');

  return (
    <Card title={t('terms.title')}>
      <Typography.Paragraph type="secondary">{t('terms.hint')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<ObservationCodedDomain>
          value={domain}
          onChange={(v) => {
            setDomain(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={OBSERVATION_CODED_DOMAINS.map((d) => ({ value: d, label: word('observationDomain', d) }))}
          data-testid="term-domain"
        />
        <Input.Search
          allowClear
          placeholder={t('terms.search')}
          onSearch={(v) => {
            setQ(v.trim());
            setPage((p) => ({ ...p, page: 1 }));
          }}
          style={{ width: 240 }}
          data-testid="term-search"
        />
        <Select
          value={mapped}
          onChange={(v) => {
            setMapped(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          style={{ width: 140 }}
          aria-label={t('terms.filter')}
          options={(['all', 'mapped', 'unmapped'] as const).map((v) => ({
            value: v,
            label: t(`terms.${v}`),
          }))}
        />
      </Space>
      <Table<ObservationTerm>
        rowKey="term"
        loading={terms.isLoading}
        dataSource={terms.data?.items ?? []}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: terms.data?.total ?? 0,
          onChange: (p, s) => setPage({ page: p, size: s }),
        }}
        columns={[
          { title: t('terms.term'), dataIndex: 'term' },
          { title: t('terms.localCode'), dataIndex: 'localCode', width: 120 },
          { title: t('terms.rows'), dataIndex: 'rows', width: 90 },
          { title: t('terms.patients'), dataIndex: 'patients', width: 90 },
          {
            title: t('terms.standard'),
            key: 'code',
            render: (_, r) =>
              !r.mapped ? (
                <Typography.Text type="secondary">{t('terms.notMapped')}</Typography.Text>
              ) : r.code ? (
                <span data-testid={`term-code-${r.term}`}>
                  <Tag color="blue">
                    {r.systemKey} {r.code}
                  </Tag>
                  {r.displayZh}
                </span>
              ) : (
                <Tag>{t('terms.noCode')}</Tag>
              ),
          },
          {
            title: t('terms.review'),
            dataIndex: 'review',
            width: 100,
            render: (v: string | null) => (v ? word('codingReview', v) : '-'),
          },
          { title: t('terms.coder'), dataIndex: 'codedByName', width: 100 },
          {
            title: '',
            key: 'op',
            width: 230,
            render: (_, r) =>
              editable && (
                <Space size={0}>
                  <ModalForm<{ code: string }>
                    title={t('terms.mapTitle', { term: r.term })}
                    width={420}
                    modalProps={{ destroyOnHidden: true }}
                    initialValues={{ code: r.code ?? '' }}
                    trigger={
                      <Button size="small" type="link" data-testid={`term-map-${r.term}`}>
                        {t('terms.map')}
                      </Button>
                    }
                    onFinish={async (v) => {
                      try {
                        await act(r.term, 'code', v.code.trim());
                        return true;
                      } catch {
                        return false;
                      }
                    }}
                  >
                    <ProFormText
                      name="code"
                      label={t('terms.codeLabel', { system: systemKey })}
                      placeholder={t('terms.codePlaceholder')}
                      rules={[{ required: true, whitespace: true, max: 40 }]}
                    />
                  </ModalForm>
                  <Button size="small" type="link" onClick={() => act(r.term, 'noCode').catch(() => {})}>
                    {t('terms.noCode')}
                  </Button>
                  {r.mapped && (
                    <Popconfirm
                      title={t('terms.reset')}
                      onConfirm={() => act(r.term, 'reset').catch(() => {})}
                    >
                      <Button size="small" type="link" danger>
                        {t('terms.reset')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
