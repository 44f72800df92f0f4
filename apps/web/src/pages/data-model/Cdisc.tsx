import { DATA_MODEL_STANDARDS, type DataModelStandard } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Segmented, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { dataModelsApi } from './api';
import { DATA_MODELS_NS } from './i18n';
import { ModelTables } from './ModelTables';

/** CDISC 模型 (`/data-model/data-model-cdisc`): the built-in SDTMIG and CDASHIG, read-only. */
export default function Cdisc() {
  const { t } = useTranslation(DATA_MODELS_NS);
  const word = useLabel();
  const [key, setKey] = useState<DataModelStandard>('sdtmig');
  const q = useQuery({ queryKey: ['data-model-standard', key], queryFn: () => dataModelsApi.standard(key) });
  const m = q.data;
  return (
    <Card title={t('cdisc.title')} data-testid="data-model-cdisc">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('cdisc.hint')}</Typography.Text>
        <Segmented<DataModelStandard>
          value={key}
          onChange={setKey}
          options={DATA_MODEL_STANDARDS.map((k) => ({ value: k, label: word('dataModelStandard', k) }))}
        />
        {q.isError && <Alert type="error" showIcon message={q.error.message} />}
        {q.isLoading && <Skeleton active />}
        {m && (
          <>
            <Descriptions
              size="small"
              column={1}
              bordered
              data-testid="standard-source"
              labelStyle={{ width: 140 }}
            >
              <Descriptions.Item label={t('cdisc.standard')}>
                {m.standard} {m.version} ·{' '}
                {t('cdisc.counts', {
                  tables: m.tables.length,
                  variables: m.variables,
                  codelists: m.codelists,
                })}
              </Descriptions.Item>
              <Descriptions.Item label={t('cdisc.ct')}>{m.ctVersion}</Descriptions.Item>
              <Descriptions.Item label={t('cdisc.source')}>{word('dataModelSource', key)}</Descriptions.Item>
              <Descriptions.Item label={t('cdisc.ctSource')}>
                {word('dataModelSource', 'ct')}
              </Descriptions.Item>
            </Descriptions>
            <ModelTables tables={m.tables} showTarget={key === 'cdashig'} />
          </>
        )}
      </Space>
    </Card>
  );
}
