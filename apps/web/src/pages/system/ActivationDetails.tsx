import { ProCard } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Descriptions, Result, Row, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { auditApi } from './api';
import { ADMIN_NS } from './i18n';

/** One audit entry: who, when, what, and the state before and after side by side. */
export default function ActivationDetails() {
  const { t } = useTranslation(ADMIN_NS);
  const word = useLabel();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const entry = useQuery({
    queryKey: ['admin', 'audit', id],
    queryFn: () => auditApi.get(id),
    enabled: valid,
  });
  const back = <Button onClick={() => navigate('/log-management/activation-log')}>{t('audit.back')}</Button>;
  if (!valid) return <Result status="404" extra={back} />;
  if (entry.isLoading) return <Spin />;
  if (!entry.data) return <Result status="404" extra={back} />;
  const e = entry.data;
  const json = (v: unknown) =>
    v === null || v === undefined ? (
      <Typography.Text type="secondary">{t('audit.none')}</Typography.Text>
    ) : (
      <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {JSON.stringify(v, null, 2)}
      </pre>
    );
  return (
    <ProCard direction="column" gutter={[0, 16]} title={t('audit.detail')} extra={back}>
      <Descriptions column={3} bordered size="small">
        <Descriptions.Item label={t('audit.at')}>{new Date(e.at).toLocaleString()}</Descriptions.Item>
        <Descriptions.Item label={t('audit.user')}>{e.userName}</Descriptions.Item>
        <Descriptions.Item label={t('audit.outcome')}>{t(`audit.${e.outcome}`)}</Descriptions.Item>
        <Descriptions.Item label={t('audit.action')}>{word('auditAction', e.action)}</Descriptions.Item>
        <Descriptions.Item label={t('audit.entity')}>{word('auditEntity', e.entity)}</Descriptions.Item>
        <Descriptions.Item label={t('audit.entityId')}>{e.entityId}</Descriptions.Item>
        <Descriptions.Item label={t('audit.ip')}>{e.ip}</Descriptions.Item>
        <Descriptions.Item label={t('audit.requestId')}>{e.requestId}</Descriptions.Item>
        <Descriptions.Item label={t('audit.reason')}>{e.reason ?? t('audit.none')}</Descriptions.Item>
      </Descriptions>
      <Row gutter={16} data-testid="audit-diff">
        <Col span={12}>
          <ProCard title={t('audit.before')} bordered>
            {json(e.before)}
          </ProCard>
        </Col>
        <Col span={12}>
          <ProCard title={t('audit.after')} bordered>
            {json(e.after)}
          </ProCard>
        </Col>
      </Row>
    </ProCard>
  );
}
