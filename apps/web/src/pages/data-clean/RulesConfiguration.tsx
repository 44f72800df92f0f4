import type { CleaningRule } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLabel } from '../../app/labels';
import { Authorized } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';

const editorOf = (r: { definition: { kind: string } }) =>
  r.definition.kind === 'regex' ? '/data-clean/reg_text' : '/data-clean/syntactic-rules';

/** 清洗规则配置: every rule (built-in and custom), enable/disable, edit, copy, delete. */
export default function RulesConfiguration() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const rules = useQuery({ queryKey: ['cleaning', 'rules'], queryFn: cleaningApi.rules });
  const refresh = () => qc.invalidateQueries({ queryKey: ['cleaning', 'rules'] });
  const toggle = useMutation({
    mutationFn: (v: { id: number; on: boolean }) => cleaningApi.setEnabled(v.id, v.on),
    onSuccess: refresh,
  });
  return (
    <Card
      title={t('rules.title')}
      extra={
        <Space>
          <Button onClick={() => navigate('/data-clean/reg_text')}>{t('rules.addRegex')}</Button>
          <Button type="primary" onClick={() => navigate('/data-clean/syntactic-rules')}>
            {t('rules.addSyntactic')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('rules.hint')}</Typography.Paragraph>
      {rules.error && <Alert type="error" showIcon message={rules.error.message} />}
      <Table<CleaningRule>
        data-testid="cleaning-rules"
        rowKey="ref"
        size="small"
        loading={rules.isLoading}
        dataSource={rules.data?.items ?? []}
        pagination={false}
        columns={[
          {
            title: t('common.rule'),
            render: (_, r) => (
              <Space>
                {r.name}
                <Tag color={r.id === null ? 'blue' : 'green'}>
                  {t(r.id === null ? 'common.builtin' : 'common.custom')}
                </Tag>
              </Space>
            ),
          },
          { title: t('common.kind'), render: (_, r) => word('cleaningRuleKind', r.definition.kind) },
          {
            title: t('rules.outputs'),
            render: (_, r) =>
              r.definition.outputs.map((o) => (
                <Tag key={o.code}>
                  {o.name} {o.unit}
                </Tag>
              )),
          },
          { title: t('common.description'), dataIndex: 'description', ellipsis: true },
          {
            title: t('common.enabled'),
            render: (_, r) =>
              r.id === null ? (
                <Switch checked disabled size="small" />
              ) : (
                <Authorized apiId={`DataCleanRulesConfiguration.${r.enabled ? 'disable' : 'enable'}`}>
                  <Switch
                    size="small"
                    checked={r.enabled}
                    loading={toggle.isPending}
                    onChange={(on) => toggle.mutate({ id: r.id!, on })}
                  />
                </Authorized>
              ),
          },
          {
            title: '',
            render: (_, r) =>
              r.id === null ? (
                <Button type="link" size="small" onClick={() => navigate(`${editorOf(r)}?copy=${r.ref}`)}>
                  {t('common.copy')}
                </Button>
              ) : (
                <Space>
                  <Button type="link" size="small" onClick={() => navigate(`${editorOf(r)}?id=${r.id}`)}>
                    {t('common.edit')}
                  </Button>
                  <DeleteLink
                    name={r.name}
                    onDelete={() => cleaningApi.deleteRule(r.id!)}
                    onDeleted={refresh}
                  />
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
